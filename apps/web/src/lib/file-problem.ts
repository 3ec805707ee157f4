import {
  fileTooLargeMessage,
  UPLOAD_ACCEPT,
  UPLOAD_MAX_BYTES,
  type UploadKind,
} from '@legalmarket/contracts/constants';
import { messages } from '@legalmarket/contracts/messages';

/**
 * Why a picked file would be refused, told before it is sent (decision 2291): on a slow phone a
 * 30 MB scan takes minutes to be refused by its size. The type goes by the file's MIME type or its
 * name's ending, as the picker offers them; the server still checks the bytes.
 */
export function fileProblem(
  file: File,
  kind: UploadKind,
  // The server's configured limits (GET /api/public-config, decision 2311); the defaults until it answers.
  limits: Record<UploadKind, number> = UPLOAD_MAX_BYTES,
): string | null {
  const allowed = UPLOAD_ACCEPT[kind].split(',');
  const dot = file.name.lastIndexOf('.');
  const ending = dot >= 0 ? file.name.slice(dot).toLowerCase() : null;
  if (!allowed.includes(file.type.toLowerCase()) && !(ending && allowed.includes(ending)))
    return kind === 'image' ? messages.imageTypeRefused : messages.documentTypeRefused;
  if (file.size > limits[kind]) return fileTooLargeMessage(limits[kind]);
  return null;
}
