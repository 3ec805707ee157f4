#!/usr/bin/env node
// After `vite build`: writes a brotli (.br, quality 11) and a gzip (.gz, level 9) copy next to every
// text asset in dist, so the server (@fastify/static with preCompressed: true) sends them as they are
// instead of compressing on every request, and at a better ratio than on-the-fly compression.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '../dist');
const TEXT = /\.(js|mjs|css|html|svg|json|txt|map)$/;
let files = 0;
let before = 0;
let after = 0;
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) {
      if (name !== '.vite') walk(file);
      continue;
    }
    if (!TEXT.test(name)) continue;
    const data = readFileSync(file);
    if (data.length < 1024) continue;
    const br = zlib.brotliCompressSync(data, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    });
    const gz = zlib.gzipSync(data, { level: 9 });
    if (br.length < data.length) writeFileSync(`${file}.br`, br);
    if (gz.length < data.length) writeFileSync(`${file}.gz`, gz);
    files += 1;
    before += data.length;
    after += br.length;
  }
};
walk(dist);
console.log(`precompress: ${files} files, ${(before / 1024).toFixed(1)} KB → ${(after / 1024).toFixed(1)} KB brotli`);
