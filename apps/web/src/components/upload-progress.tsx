/**
 * How much of a picked file has gone up while its form's save waits: a 5 MB picture may take minutes
 * on a phone's network. Named after the file, for a screen reader.
 */
export function UploadProgress({ name, fraction }: { name: string; fraction: number }) {
  return (
    <progress
      className="h-2 w-full [&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:bg-brand"
      max={100}
      value={Math.round(fraction * 100)}
      aria-label={`Uploading ${name}`}
    />
  );
}
