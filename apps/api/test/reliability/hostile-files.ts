import { constants, deflateRawSync } from 'node:zlib';
import { messages } from '@legalmarket/contracts';
import { docxBytes, htmlBytes, jpegBytes, pdfBytes, pngBytes, svgBytes, webpBytes } from '../upload-helpers.js';

/**
 * The hostile upload corpus of issue 8, item 6: every file is built here from bytes, so the corpus
 * documents itself. `expect` is the answer the API must give: a refusal (status + message) or
 * `stored` for a file that is valid and harmless once stored under a random key and served with a
 * fixed type, nosniff and, for documents, as a sandboxed attachment (docs/decisions/0850).
 */
export type Expectation = { status: 400 | 415 | 422; message: string } | 'stored';

export interface HostileFile {
  name: string;
  /** The file name the browser sends (may hold ../, NUL and other tricks). */
  filename: string;
  kind: 'image' | 'document';
  data: Buffer;
  expect: Expectation;
  /** For stored files: the name the API must answer and serve. */
  storedName?: string;
}

// ---------- byte builders ----------

const u32be = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const u16le = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};
const u32le = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};

/** A PNG whose IHDR declares width × height, with a tiny IDAT (the pixels are never there). */
export function pngDeclaring(width: number, height: number): Buffer {
  const real = pngBytes(1, 1);
  const out = Buffer.from(real);
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  // Keep the IHDR checksum right so only the size is "wrong".
  const crc = crc32(out.subarray(12, 29));
  out.writeUInt32BE(crc, 29);
  return out;
}

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
function pngChunk(type: string, data: Buffer) {
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  return Buffer.concat([u32be(data.length), td, u32be(crc32(td))]);
}
/** A valid PNG with an extra chunk inserted before IEND. */
function pngWith(type: string, data: Buffer) {
  const p = pngBytes(2, 2);
  return Buffer.concat([p.subarray(0, p.length - 12), pngChunk(type, data), p.subarray(p.length - 12)]);
}

/** A JPEG whose frame header declares width × height. */
function jpegDeclaring(width: number, height: number) {
  const j = Buffer.from(jpegBytes());
  const sof = j.indexOf(Buffer.from([0xff, 0xc0]));
  j.writeUInt16BE(height, sof + 5);
  j.writeUInt16BE(width, sof + 7);
  return j;
}
/** A JPEG with a comment (COM) segment inserted after SOI. */
function jpegWithComment(text: string) {
  const j = jpegBytes();
  const body = Buffer.from(text);
  const seg = Buffer.concat([
    Buffer.from([0xff, 0xfe]),
    Buffer.from([(body.length + 2) >> 8, (body.length + 2) & 255]),
    body,
  ]);
  return Buffer.concat([j.subarray(0, 2), seg, j.subarray(2)]);
}
/** An extended WebP (VP8X) declaring a canvas of width × height. */
function webpDeclaring(width: number, height: number) {
  const data = Buffer.alloc(10);
  data.writeUIntLE(width - 1, 4, 3);
  data.writeUIntLE(height - 1, 7, 3);
  const chunk = Buffer.concat([Buffer.from('VP8X'), u32le(10), data]);
  return Buffer.concat([Buffer.from('RIFF'), u32le(4 + chunk.length), Buffer.from('WEBP'), chunk]);
}

interface ZipEntry {
  name: string;
  data?: Buffer;
  /** Already deflated bytes and their (claimed) unpacked size. */
  deflated?: { bytes: Buffer; size: number };
  flags?: number;
}
/** A ZIP archive written by hand (local headers, central directory, end record). */
export function zip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const bytes = e.deflated ? e.deflated.bytes : deflateRawSync(e.data ?? Buffer.alloc(0));
    const size = e.deflated ? e.deflated.size : (e.data ?? Buffer.alloc(0)).length;
    const crc = e.data ? crc32(e.data) : 0;
    const common = Buffer.concat([
      u16le(20),
      u16le(e.flags ?? 0),
      u16le(8),
      u16le(0),
      u16le(0),
      u32le(crc),
      u32le(bytes.length),
      u32le(size),
      u16le(name.length),
      u16le(0),
    ]);
    const local = Buffer.concat([u32le(0x04034b50), common, name, bytes]);
    central.push(
      Buffer.concat([
        u32le(0x02014b50),
        u16le(20),
        common,
        u16le(0),
        u16le(0),
        u16le(0),
        u32le(0),
        u32le(offset),
        name,
      ]),
    );
    locals.push(local);
    offset += local.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.concat([
    u32le(0x06054b50),
    u16le(0),
    u16le(0),
    u16le(entries.length),
    u16le(entries.length),
    u32le(cd.length),
    u32le(offset),
    u16le(0),
  ]);
  return Buffer.concat([...locals, cd, end]);
}

const CONTENT_TYPES = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
);
const SIXTEEN_MB_OF_ZEROS = () => ({
  bytes: deflateRawSync(Buffer.alloc(16 * 1024 * 1024), { level: 9 }),
  size: 16 * 1024 * 1024,
});

/** 16 MB × n of zeros as one deflate stream (full-flushed pieces repeated, then an empty final block). */
function zerosDeflated(n: number) {
  const piece = deflateRawSync(Buffer.alloc(16 * 1024 * 1024), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  return {
    bytes: Buffer.concat([...Array.from({ length: n }, () => piece), Buffer.from([0x03, 0x00])]),
    size: n * 16 * 1024 * 1024,
  };
}

/** A DOCX-looking zip bomb: 64 entries of 16 MB of zeros each (1 GiB unpacked) in about a megabyte. */
export function docxBomb() {
  const z = SIXTEEN_MB_OF_ZEROS();
  return zip([
    { name: '[Content_Types].xml', data: CONTENT_TYPES },
    { name: 'word/document.xml', data: Buffer.from('<w:document/>') },
    ...Array.from({ length: 64 }, (_, i) => ({ name: `word/media/pad${i}.bin`, deflated: z })),
  ]);
}

const zipOf = (name: string, text: string) => zip([{ name, data: Buffer.from(text) }]);
const pdfHtml = () =>
  Buffer.from(
    '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Length 90 >>\nstream\n<html><body><script>fetch("/api/userprofile").then(r=>r.text()).then(alert)</script></body></html>\nendstream endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  );

const refuse = (status: 400 | 415 | 422, message: string): Expectation => ({ status, message });
const T415I = refuse(415, messages.imageTypeRefused);
const T415D = refuse(415, messages.documentTypeRefused);
const DAMAGED = refuse(422, messages.fileDamaged);
const HIDES = refuse(422, messages.fileHidesArchive);
const PIXELS = refuse(422, messages.imageTooManyPixels);

export function hostileCorpus(): HostileFile[] {
  const png = pngBytes(3, 3);
  const docx = docxBytes();
  return [
    // Script-capable text dressed up as a picture or a document.
    { name: 'HTML renamed .png', filename: 'photo.png', kind: 'image', data: htmlBytes(), expect: T415I },
    { name: 'HTML renamed .pdf', filename: 'contract.pdf', kind: 'document', data: htmlBytes(), expect: T415D },
    { name: 'SVG with script renamed .png', filename: 'logo.png', kind: 'image', data: svgBytes(), expect: T415I },
    { name: 'SVG with script renamed .pdf', filename: 'logo.pdf', kind: 'document', data: svgBytes(), expect: T415D },
    {
      name: 'SVG with an XML prolog renamed .jpg',
      filename: 'avatar.jpg',
      kind: 'image',
      data: Buffer.from(`<?xml version="1.0"?>\n${svgBytes().toString()}`),
      expect: T415I,
    },
    {
      name: 'HTML with a BOM and blank lines',
      filename: 'terms.pdf',
      kind: 'document',
      data: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('\n\n  '), htmlBytes()]),
      expect: T415D,
    },
    {
      name: 'HTML with %PDF a few bytes in (readers accept it, we do not)',
      filename: 'deck.pdf',
      kind: 'document',
      data: Buffer.concat([Buffer.from('<html><script>alert(1)</script>'), pdfBytes()]),
      expect: T415D,
    },
    // Polyglots: one file, two readings.
    {
      name: 'GIFAR: a GIF with a JAR appended',
      filename: 'pic.gif',
      kind: 'image',
      data: Buffer.concat([
        Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'),
        zipOf('META-INF/MANIFEST.MF', 'Main-Class: X'),
      ]),
      expect: T415I,
    },
    {
      name: 'PNG with a JAR appended (GIFAR-style)',
      filename: 'pic.png',
      kind: 'image',
      data: Buffer.concat([png, zipOf('META-INF/MANIFEST.MF', 'Main-Class: X')]),
      expect: HIDES,
    },
    {
      name: 'JPEG with a ZIP appended',
      filename: 'pic.jpg',
      kind: 'image',
      data: Buffer.concat([jpegBytes(), zipOf('payload.html', '<script>alert(1)</script>')]),
      expect: HIDES,
    },
    {
      name: 'WebP with a ZIP appended',
      filename: 'pic.webp',
      kind: 'image',
      data: Buffer.concat([webpBytes(), zipOf('x.txt', 'x')]),
      expect: HIDES,
    },
    {
      name: 'PNG with HTML after IEND',
      filename: 'pic.png',
      kind: 'image',
      data: Buffer.concat([png, htmlBytes()]),
      expect: HIDES,
    },
    {
      name: 'PDF with a ZIP appended',
      filename: 'brief.pdf',
      kind: 'document',
      data: Buffer.concat([pdfBytes(), zipOf('evil.html', '<script>alert(1)</script>')]),
      expect: HIDES,
    },
    // Zip bombs and broken archives.
    {
      name: 'DOCX zip bomb: 1 GiB of zeros in 64 entries',
      filename: 'bomb.docx',
      kind: 'document',
      data: docxBomb(),
      expect: refuse(422, messages.documentUnpacksTooLarge),
    },
    {
      name: 'DOCX whose document.xml lies about its size (says 100 bytes, unpacks to 16 MB)',
      filename: 'liar.docx',
      kind: 'document',
      data: zip([
        { name: '[Content_Types].xml', data: CONTENT_TYPES },
        { name: 'word/document.xml', deflated: { ...SIXTEEN_MB_OF_ZEROS(), size: 100 } },
      ]),
      expect: DAMAGED,
    },
    {
      name: 'DOCX whose [Content_Types].xml is itself a 208 MB bomb',
      filename: 'types-bomb.docx',
      kind: 'document',
      data: zip([
        { name: '[Content_Types].xml', deflated: zerosDeflated(13) },
        { name: 'word/document.xml', data: Buffer.from('<w:document/>') },
      ]),
      // file-type inflates at most 1 MB of it, gives up on the types and calls it a plain ZIP.
      expect: T415D,
    },
    {
      name: 'DOCX cut in half',
      filename: 'half.docx',
      kind: 'document',
      data: docx.subarray(0, Math.floor(docx.length / 2)),
      expect: DAMAGED,
    },
    {
      name: 'DOCX with an encrypted entry',
      filename: 'locked.docx',
      kind: 'document',
      data: zip([
        { name: '[Content_Types].xml', data: CONTENT_TYPES },
        { name: 'word/document.xml', data: Buffer.from('<w:document/>'), flags: 1 },
      ]),
      expect: DAMAGED,
    },
    {
      name: 'a plain ZIP renamed .docx',
      filename: 'notes.docx',
      kind: 'document',
      data: zipOf('notes.txt', 'hello'),
      expect: T415D,
    },
    // Pixel floods.
    {
      name: 'PNG declaring 100000 × 100000',
      filename: 'huge.png',
      kind: 'image',
      data: pngDeclaring(100_000, 100_000),
      expect: PIXELS,
    },
    {
      name: 'PNG declaring 12001 × 1',
      filename: 'wide.png',
      kind: 'image',
      data: pngDeclaring(12_001, 1),
      expect: PIXELS,
    },
    {
      name: 'PNG declaring 7000 × 7000 (49 MP)',
      filename: 'big.png',
      kind: 'image',
      data: pngDeclaring(7000, 7000),
      expect: PIXELS,
    },
    {
      name: 'PNG declaring 100000 × 100000 sent as a document',
      filename: 'huge.png',
      kind: 'document',
      data: pngDeclaring(100_000, 100_000),
      expect: PIXELS,
    },
    {
      name: 'JPEG declaring 65535 × 65535',
      filename: 'huge.jpg',
      kind: 'image',
      data: jpegDeclaring(65535, 65535),
      expect: PIXELS,
    },
    {
      name: 'WebP declaring 16384 × 16384',
      filename: 'huge.webp',
      kind: 'image',
      data: webpDeclaring(16384, 16384),
      expect: PIXELS,
    },
    { name: 'PNG declaring 0 × 0', filename: 'zero.png', kind: 'image', data: pngDeclaring(0, 0), expect: DAMAGED },
    // Empty, wrong magic bytes, other types.
    {
      name: 'empty image',
      filename: 'empty.png',
      kind: 'image',
      data: Buffer.alloc(0),
      expect: refuse(400, messages.chooseFile),
    },
    {
      name: 'empty document',
      filename: 'empty.pdf',
      kind: 'document',
      data: Buffer.alloc(0),
      expect: refuse(400, messages.chooseFile),
    },
    {
      name: 'PNG with a broken signature',
      filename: 'broken.png',
      kind: 'image',
      data: Buffer.concat([Buffer.from([0x88]), png.subarray(1)]),
      expect: T415I,
    },
    {
      name: '%pdf in lower case',
      filename: 'x.pdf',
      kind: 'document',
      data: Buffer.from(pdfBytes().toString().replace('%PDF', '%pdf')),
      expect: T415D,
    },
    {
      name: 'Windows program renamed .pdf',
      filename: 'invoice.pdf',
      kind: 'document',
      data: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(58), u32le(64), Buffer.from('PE\0\0'), Buffer.alloc(200)]),
      expect: T415D,
    },
    {
      name: 'ELF program renamed .png',
      filename: 'cat.png',
      kind: 'image',
      data: Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), Buffer.alloc(120)]),
      expect: T415I,
    },
    {
      name: 'random bytes renamed .docx',
      filename: 'r.docx',
      kind: 'document',
      data: Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 73 + 11) & 255)),
      expect: T415D,
    },
    {
      name: 'a GIF (not an allowed picture type)',
      filename: 'anim.gif',
      kind: 'image',
      data: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'),
      expect: T415I,
    },
    { name: 'a PDF where a picture is expected', filename: 'scan.png', kind: 'image', data: pdfBytes(), expect: T415I },
    // Truncated files.
    {
      name: 'PNG cut after its header',
      filename: 'cut.png',
      kind: 'image',
      data: png.subarray(0, 33),
      expect: DAMAGED,
    },
    {
      name: 'PNG cut inside its pixel data',
      filename: 'cut.png',
      kind: 'image',
      data: png.subarray(0, png.length - 20),
      expect: DAMAGED,
    },
    {
      name: 'JPEG cut before its frame header',
      filename: 'cut.jpg',
      kind: 'image',
      data: jpegBytes().subarray(0, 20),
      expect: DAMAGED,
    },
    { name: 'WebP cut short', filename: 'cut.webp', kind: 'image', data: webpBytes().subarray(0, 60), expect: DAMAGED },
    {
      name: 'PDF without its end (%%EOF)',
      filename: 'cut.pdf',
      kind: 'document',
      data: pdfBytes().subarray(0, 40),
      expect: DAMAGED,
    },
    // Valid and harmless once stored: names are cleaned, bytes served with their real type.
    {
      name: 'valid PDF named ../../../etc/passwd',
      filename: '../../../etc/passwd',
      kind: 'document',
      data: pdfBytes(),
      expect: 'stored',
      storedName: 'passwd.pdf',
    },
    {
      name: 'valid PNG named ..\\..\\windows\\evil.png',
      filename: '..\\..\\windows\\evil.png',
      kind: 'image',
      data: png,
      expect: 'stored',
      storedName: 'evil.png',
    },
    {
      name: 'valid PDF named report.pdf<NUL>.html',
      filename: 'report.pdf\u0000.html',
      kind: 'document',
      data: pdfBytes(),
      expect: 'stored',
      storedName: 'report.pdf.html.pdf',
    },
    {
      name: 'valid PDF named <script>.pdf',
      filename: '<script>alert(1)</script>.pdf',
      kind: 'document',
      data: pdfBytes(),
      expect: 'stored',
      storedName: 'script.pdf',
    },
    {
      name: 'PDF + HTML polyglot (a valid PDF carrying a script)',
      filename: 'polyglot.html',
      kind: 'document',
      data: pdfHtml(),
      expect: 'stored',
      storedName: 'polyglot.html.pdf',
    },
    {
      name: 'PNG carrying HTML in a text chunk',
      filename: 'note.png',
      kind: 'image',
      data: pngWith('tEXt', Buffer.from('Comment\0<html><script>alert(1)</script></html>', 'latin1')),
      expect: 'stored',
      storedName: 'note.png',
    },
    {
      name: 'JPEG carrying a script in a comment segment',
      filename: 'me.jpeg',
      kind: 'image',
      data: jpegWithComment('<script>alert(document.domain)</script>'),
      expect: 'stored',
      storedName: 'me.jpeg',
    },
  ];
}
