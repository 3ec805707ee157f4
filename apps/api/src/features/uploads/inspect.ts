import { createInflateRaw } from 'node:zlib';
import { messages } from '@legalmarket/contracts';

/**
 * Structural checks of an upload whose type is already known from its magic bytes
 * (docs/decisions/0850-hostile-uploads.md). Nothing here decodes pixels or keeps unpacked data: the
 * checks read headers, walk chunk and marker tables, and count inflated bytes without keeping them.
 * Each answers null when the file is fine, else the message to refuse it with.
 */

/** Pixel floods: a few hundred bytes can declare an image that needs gigabytes to decode. */
const MAX_IMAGE_SIDE = 12_000;
const MAX_IMAGE_PIXELS = 40_000_000;
/** What a DOCX may unpack to, all entries together, and how many entries it may have. */
const MAX_DOCX_UNPACKED_BYTES = 100 * 1024 * 1024;
const MAX_DOCX_ENTRIES = 2_000;

type InspectedKind = 'png' | 'jpg' | 'webp' | 'pdf' | 'docx' | 'doc';

interface Dimensions {
  width: number;
  height: number;
}

const tooManyPixels = (d: Dimensions | null) =>
  !d || d.width < 1 || d.height < 1
    ? messages.fileDamaged
    : d.width > MAX_IMAGE_SIDE || d.height > MAX_IMAGE_SIDE || d.width * d.height > MAX_IMAGE_PIXELS
      ? messages.imageTooManyPixels
      : null;

/** PNG: IHDR first, every chunk inside the file, IEND last and nothing after it. */
function pngDimensions(b: Buffer): Dimensions | 'trailing' | null {
  let pos = 8;
  let dims: Dimensions | null = null;
  while (pos + 12 <= b.length) {
    const len = b.readUInt32BE(pos);
    const type = b.toString('latin1', pos + 4, pos + 8);
    if (len > 0x7fffffff || pos + 12 + len > b.length) return null;
    if (pos === 8) {
      if (type !== 'IHDR' || len !== 13) return null;
      dims = { width: b.readUInt32BE(pos + 8), height: b.readUInt32BE(pos + 12) };
    }
    pos += 12 + len;
    if (type === 'IEND') return pos === b.length ? dims : 'trailing';
  }
  return null; // no IEND: truncated
}

const isSof = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

/** JPEG: the marker segments up to the start of scan, with a frame header (SOFn) among them. */
function jpegDimensions(b: Buffer): Dimensions | null {
  let pos = 2;
  let dims: Dimensions | null = null;
  while (pos + 4 <= b.length) {
    if (b[pos] !== 0xff) return null;
    const marker = b[pos + 1];
    if (marker === 0xff) {
      pos += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      pos += 2;
      continue;
    }
    if (marker === 0xd9) return null; // end of image before any scan
    const len = b.readUInt16BE(pos + 2);
    if (len < 2 || pos + 2 + len > b.length) return null;
    if (isSof(marker)) {
      if (len < 7) return null;
      dims = { height: b.readUInt16BE(pos + 5), width: b.readUInt16BE(pos + 7) };
    }
    if (marker === 0xda) return dims && pos + 2 + len < b.length ? dims : null;
    pos += 2 + len;
  }
  return null;
}

/** WebP: a RIFF container that the file fills exactly, with a VP8, VP8L or VP8X first chunk. */
function webpDimensions(b: Buffer): Dimensions | 'trailing' | null {
  if (b.length < 30) return null;
  const riffEnd = b.readUInt32LE(4) + 8;
  if (riffEnd > b.length) return null;
  if (b.length > riffEnd + 1) return 'trailing';
  const type = b.toString('latin1', 12, 16);
  const size = b.readUInt32LE(16);
  const d = 20;
  if (d + size > riffEnd) return null;
  if (type === 'VP8 ') {
    if (size < 10 || b[d + 3] !== 0x9d || b[d + 4] !== 0x01 || b[d + 5] !== 0x2a) return null;
    return { width: b.readUInt16LE(d + 6) & 0x3fff, height: b.readUInt16LE(d + 8) & 0x3fff };
  }
  if (type === 'VP8L') {
    if (size < 5 || b[d] !== 0x2f) return null;
    const bits = b.readUInt32LE(d + 1);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (type === 'VP8X') {
    if (size < 10) return null;
    return { width: b.readUIntLE(d + 4, 3) + 1, height: b.readUIntLE(d + 7, 3) + 1 };
  }
  return null;
}

/** The ZIP end-of-central-directory record: where zip readers look, at the end of the file. */
function findEocd(b: Buffer): number {
  const stop = Math.max(0, b.length - 22 - 0xffff);
  for (let i = b.length - 22; i >= stop; i--) {
    if (b.readUInt32LE(i) === 0x06054b50 && i + 22 + b.readUInt16LE(i + 20) === b.length) return i;
  }
  return -1;
}

/** True when zip readers would also open this file as an archive (a GIFAR-style polyglot). */
const hidesZip = (b: Buffer) => b.length >= 22 && findEocd(b) >= 0;

/** Inflates without keeping the output; answers how many bytes came out, stopping past `budget`. */
function inflatedSize(data: Buffer, budget: number): Promise<number> {
  return new Promise((resolve) => {
    const z = createInflateRaw();
    let n = 0;
    let done = false;
    const finish = (v: number) => {
      if (done) return;
      done = true;
      z.destroy();
      resolve(v);
    };
    z.on('data', (chunk: Buffer) => {
      n += chunk.length;
      if (n > budget) finish(n);
    });
    z.on('end', () => finish(n));
    z.on('error', () => finish(-1));
    z.end(data);
  });
}

/**
 * DOCX: a complete central directory, no encryption, stored or deflated entries only, and an unpacked
 * size under MAX_DOCX_UNPACKED_BYTES, both as declared and as really inflated (counted, never kept).
 */
async function inspectDocx(b: Buffer): Promise<string | null> {
  const eocd = findEocd(b);
  if (eocd < 0) return messages.fileDamaged;
  const entries = b.readUInt16LE(eocd + 10);
  const cdSize = b.readUInt32LE(eocd + 12);
  const cdOffset = b.readUInt32LE(eocd + 16);
  if (entries === 0xffff || cdOffset === 0xffffffff) return messages.documentUnpacksTooLarge; // ZIP64
  if (entries > MAX_DOCX_ENTRIES) return messages.documentUnpacksTooLarge;
  if (cdOffset + cdSize > eocd) return messages.fileDamaged;
  let pos = cdOffset;
  let declared = 0;
  let inflated = 0;
  for (let i = 0; i < entries; i++) {
    if (pos + 46 > eocd || b.readUInt32LE(pos) !== 0x02014b50) return messages.fileDamaged;
    const flags = b.readUInt16LE(pos + 8);
    const method = b.readUInt16LE(pos + 10);
    const compressed = b.readUInt32LE(pos + 20);
    const size = b.readUInt32LE(pos + 24);
    const nameLen = b.readUInt16LE(pos + 28);
    const extraLen = b.readUInt16LE(pos + 30);
    const commentLen = b.readUInt16LE(pos + 32);
    const local = b.readUInt32LE(pos + 42);
    if (flags & 1) return messages.fileDamaged; // encrypted: Word never writes those
    if (method !== 0 && method !== 8) return messages.fileDamaged;
    declared += size;
    if (declared > MAX_DOCX_UNPACKED_BYTES) return messages.documentUnpacksTooLarge;
    if (local + 30 > cdOffset || b.readUInt32LE(local) !== 0x04034b50) return messages.fileDamaged;
    const start = local + 30 + b.readUInt16LE(local + 26) + b.readUInt16LE(local + 28);
    if (start + compressed > cdOffset) return messages.fileDamaged;
    const data = b.subarray(start, start + compressed);
    // The declared size may lie: count what really comes out, against what is left of the budget.
    const out = method === 0 ? compressed : await inflatedSize(data, size + 1);
    if (out < 0) return messages.fileDamaged;
    inflated += out;
    if (inflated > MAX_DOCX_UNPACKED_BYTES) return messages.documentUnpacksTooLarge;
    if (out !== size) return messages.fileDamaged;
    pos += 46 + nameLen + extraLen + commentLen;
  }
  return null;
}

/** Null when the file is sound for its type; else why it is refused. */
export async function inspectFile(b: Buffer, kind: InspectedKind): Promise<string | null> {
  switch (kind) {
    case 'png': {
      const d = pngDimensions(b);
      return d === 'trailing' ? messages.fileHidesArchive : tooManyPixels(d);
    }
    case 'jpg': {
      if (hidesZip(b)) return messages.fileHidesArchive;
      return tooManyPixels(jpegDimensions(b));
    }
    case 'webp': {
      const d = webpDimensions(b);
      return d === 'trailing' ? messages.fileHidesArchive : tooManyPixels(d);
    }
    case 'pdf': {
      if (hidesZip(b)) return messages.fileHidesArchive;
      // Readers look for %%EOF within the last 1024 bytes; without it the file was cut short.
      return b.subarray(Math.max(0, b.length - 1024)).includes('%%EOF') ? null : messages.fileDamaged;
    }
    case 'docx':
      return inspectDocx(b);
    case 'doc':
      // An OLE2 compound file: at least its 512-byte header and one sector.
      return b.length >= 1024 ? null : messages.fileDamaged;
  }
}
