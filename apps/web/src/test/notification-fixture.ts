/** Notification `id` about a message on job-1 saying `text`, made on 20 November 2026; unread unless `readAt`. */
export const notificationFixture = (id: number, text: string, readAt: string | null = null) => ({
  _id: String(id),
  jobId: 'job-1',
  action: 'message' as const,
  text,
  createdAt: '2026-11-20T10:00:00.000Z',
  readAt,
});
