import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { expect } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

/** A real RGB PNG of the given size (a diagonal gradient), optionally padded to reach `minBytes`. */
export function pngBytes(width = 4, height = 4, minBytes = 0): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) row.set([(x * 40) & 255, (y * 40) & 255, 120], 1 + x * 3);
    rows.push(row);
  }
  const parts = [
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
  ];
  const size = parts.reduce((n, p) => n + p.length, 0) + 12;
  // An ancillary text chunk pads the file without making it invalid.
  if (minBytes > size + 12) parts.push(chunk('tEXt', Buffer.alloc(minBytes - size - 12, 0x61)));
  parts.push(chunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(parts);
}

/** A JPEG's marker structure (JFIF header, a 4×4 frame header, start of scan, end of image). */
export const jpegBytes = () =>
  Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
    Buffer.from('JFIF\0'),
    Buffer.from([1, 1, 0, 0, 1, 0, 1, 0, 0]),
    Buffer.from('ffc00011080004000403011100021101031101', 'hex'),
    Buffer.from('ffda000c03010002110311003f00', 'hex'),
    Buffer.alloc(200),
    Buffer.from([0xff, 0xd9]),
  ]);
/** A lossless WebP container with a 4×4 VP8L header; the RIFF size is the file's. */
export const webpBytes = () => {
  const vp8l = Buffer.concat([Buffer.from([0x2f]), Buffer.from([0x03, 0xc0, 0x00, 0x00]), Buffer.alloc(195)]);
  const chunk = Buffer.concat([Buffer.from('VP8L'), Buffer.from([vp8l.length, 0, 0, 0]), vp8l]);
  const riff = Buffer.alloc(4);
  riff.writeUInt32LE(4 + chunk.length);
  return Buffer.concat([Buffer.from('RIFF'), riff, Buffer.from('WEBP'), chunk]);
};
export const pdfBytes = (text = 'Contract') =>
  Buffer.from(`%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n% ${text}\ntrailer << /Root 1 0 R >>\n%%EOF\n`);
export const docxBytes = () => readFileSync(path.join(here, 'fixtures', 'agreement.docx'));
export const docBytes = () => Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(1024)]);
export const htmlBytes = () =>
  Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');
export const svgBytes = () =>
  Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');

export interface Part {
  name: string;
  value?: string;
  file?: { data: Buffer; filename: string; type?: string };
}

/** A multipart/form-data body for app.inject, built by the platform's own FormData encoder. */
export async function multipart(parts: Part[]) {
  const form = new FormData();
  for (const p of parts) {
    if (p.file)
      form.append(
        p.name,
        new Blob([new Uint8Array(p.file.data)], { type: p.file.type ?? 'application/octet-stream' }),
        p.file.filename,
      );
    else form.append(p.name, p.value ?? '');
  }
  const res = new Response(form);
  return {
    payload: Buffer.from(await res.arrayBuffer()),
    headers: { 'content-type': res.headers.get('content-type')! },
  };
}

/** Uploads a PDF document as the holder of `headers` through the API; answers its URL, key and name. */
export async function uploadDocument(
  app: { inject: (o: object) => Promise<{ statusCode: number; body: string; json(): unknown }> },
  headers: Record<string, string>,
  filename = 'brief.pdf',
  text = 'Contract',
) {
  const body = await multipart([{ name: 'file', file: { data: pdfBytes(text), filename, type: 'application/pdf' } }]);
  const res = await app.inject({
    method: 'POST',
    url: '/api/uploads?kind=document',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
  if (res.statusCode !== 201) throw new Error(`upload failed: ${res.body}`);
  const { url, fileName } = (res.json() as { data: { url: string; fileName: string } }).data;
  return { url, key: url.split('/').pop()!, fileName };
}

/** Uploads `data` as an image or a document (the form's `kind` field) as the holder of `headers`; returns its URL and name. */
export async function uploadAs(
  app: { inject: (o: object) => Promise<{ statusCode: number; json(): unknown }> },
  headers: Record<string, string>,
  kind: 'image' | 'document',
  data: Buffer,
  filename: string,
) {
  const body = await multipart([
    { name: 'kind', value: kind },
    { name: 'file', file: { data, filename, type: kind === 'image' ? 'image/png' : 'application/pdf' } },
  ]);
  const res = await app.inject({
    method: 'POST',
    url: '/api/uploads',
    headers: { ...body.headers, ...headers },
    payload: body.payload,
  });
  expect(res.statusCode).toBe(201);
  const saved = (res.json() as { data: { url: string; fileName: string } }).data;
  return { url: saved.url, name: saved.fileName };
}
