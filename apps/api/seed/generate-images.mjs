#!/usr/bin/env node
// Draws the starting catalogue's product pictures (640x400 palette PNGs, a few KB each) so they ship
// with the repository without any image tooling. Run: node apps/api/seed/generate-images.mjs
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const W = 640;
const H = 400;
const out = path.join(path.dirname(fileURLToPath(import.meta.url)), 'products');

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (b) => {
  let c = 0xffffffff;
  for (const x of b) c = CRC[(c ^ x) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
};

function encode(pixels, palette) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(W, 0);
  ihdr.writeUInt32BE(H, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 3; // palette
  const raw = Buffer.alloc((W + 1) * H);
  for (let y = 0; y < H; y++) {
    raw[y * (W + 1)] = 0;
    pixels.copy(raw, y * (W + 1) + 1, y * W, (y + 1) * W);
  }
  const plte = Buffer.from(palette.flatMap((hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16))));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('PLTE', plte),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A tiny painter on palette indexes. */
function canvas() {
  const px = Buffer.alloc(W * H);
  const set = (x, y, c) => {
    if (x >= 0 && y >= 0 && x < W && y < H) px[y * W + x] = c;
  };
  const shape = (x0, y0, x1, y1, inside, c) => {
    for (let y = Math.max(0, Math.floor(y0)); y <= Math.min(H - 1, Math.ceil(y1)); y++)
      for (let x = Math.max(0, Math.floor(x0)); x <= Math.min(W - 1, Math.ceil(x1)); x++)
        if (inside(x + 0.5, y + 0.5)) set(x, y, c);
  };
  const api = {
    px,
    fill: (c) => px.fill(c),
    rect: (x, y, w, h, c) => shape(x, y, x + w - 1, y + h - 1, () => true, c),
    round: (x, y, w, h, r, c) =>
      shape(
        x,
        y,
        x + w,
        y + h,
        (px_, py) => {
          const cx = Math.min(Math.max(px_, x + r), x + w - r);
          const cy = Math.min(Math.max(py, y + r), y + h - r);
          return (px_ - cx) ** 2 + (py - cy) ** 2 <= r * r;
        },
        c,
      ),
    circle: (cx, cy, r, c) =>
      shape(cx - r, cy - r, cx + r, cy + r, (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r, c),
    ring: (cx, cy, r, t, c, from = 0, to = 360) =>
      shape(
        cx - r,
        cy - r,
        cx + r,
        cy + r,
        (x, y) => {
          const d = Math.hypot(x - cx, y - cy);
          if (d > r || d < r - t) return false;
          const a = ((Math.atan2(y - cy, x - cx) * 180) / Math.PI + 360) % 360;
          return from <= to ? a >= from && a <= to : a >= from || a <= to;
        },
        c,
      ),
    wedge: (cx, cy, r, from, to, c) =>
      shape(
        cx - r,
        cy - r,
        cx + r,
        cy + r,
        (x, y) => {
          if ((x - cx) ** 2 + (y - cy) ** 2 > r * r) return false;
          const a = ((Math.atan2(y - cy, x - cx) * 180) / Math.PI + 360) % 360;
          return a >= from && a <= to;
        },
        c,
      ),
    line: (x0, y0, x1, y1, t, c) => {
      const len = Math.hypot(x1 - x0, y1 - y0) || 1;
      shape(
        Math.min(x0, x1) - t,
        Math.min(y0, y1) - t,
        Math.max(x0, x1) + t,
        Math.max(y0, y1) + t,
        (x, y) => {
          const u = Math.max(0, Math.min(1, ((x - x0) * (x1 - x0) + (y - y0) * (y1 - y0)) / len ** 2));
          return Math.hypot(x - (x0 + u * (x1 - x0)), y - (y0 + u * (y1 - y0))) <= t / 2;
        },
        c,
      );
    },
    poly: (pts, c) => {
      const xs = pts.map((p) => p[0]);
      const ys = pts.map((p) => p[1]);
      shape(
        Math.min(...xs),
        Math.min(...ys),
        Math.max(...xs),
        Math.max(...ys),
        (x, y) => {
          let inside = false;
          for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
            const [xi, yi] = pts[i];
            const [xj, yj] = pts[j];
            if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
          }
          return inside;
        },
        c,
      );
    },
  };
  return api;
}

// Palette indexes: 0 background, 1 background shade, 2 white, 3 grey line, 4 ink, 5 accent, 6 brand, 7 soft.
const BG = 0,
  SHADE = 1,
  WHITE = 2,
  GREY = 3,
  INK = 4,
  ACCENT = 5,
  BRAND = 6,
  SOFT = 7;

function backdrop(c) {
  c.fill(BG);
  c.circle(560, 60, 170, SHADE);
  c.circle(40, 380, 120, SHADE);
  for (let i = 0; i < 6; i++) c.circle(70 + i * 22, 50, 4, SOFT);
}

function paper(c, x, y, w = 190, h = 250) {
  c.round(x + 8, y + 10, w, h, 14, SHADE);
  c.round(x, y, w, h, 14, WHITE);
  c.poly(
    [
      [x + w - 46, y],
      [x + w, y + 46],
      [x + w - 46, y + 46],
    ],
    SOFT,
  );
  const rows = Math.min(7, Math.floor((h - 80) / 22));
  for (let i = 0; i < rows; i++) c.round(x + 24, y + 60 + i * 22, i % 3 === 2 ? w - 90 : w - 50, 8, 4, GREY);
}
const signature = (c, x, y) => {
  for (let i = 0; i < 90; i += 2) c.circle(x + i, y + Math.sin(i / 9) * 8, 2.2, INK);
};
const seal = (c, x, y) => {
  c.circle(x, y, 30, ACCENT);
  c.ring(x, y, 22, 4, WHITE);
  c.poly(
    [
      [x - 16, y + 24],
      [x - 4, y + 24],
      [x - 10, y + 52],
    ],
    ACCENT,
  );
  c.poly(
    [
      [x + 4, y + 24],
      [x + 16, y + 24],
      [x + 10, y + 52],
    ],
    ACCENT,
  );
};

const DRAW = {
  'contract-review': (c) => {
    paper(c, 200, 70);
    c.ring(430, 230, 58, 16, BRAND);
    c.line(472, 272, 530, 330, 22, BRAND);
    signature(c, 230, 300);
  },
  nda: (c) => {
    paper(c, 170, 70);
    c.ring(440, 200, 46, 14, INK, 180, 360);
    c.rect(380, 200, 14, 20, INK);
    c.rect(486, 200, 14, 20, INK);
    c.round(370, 200, 140, 120, 16, ACCENT);
    c.circle(440, 250, 14, INK);
    c.rect(434, 256, 12, 34, INK);
  },
  'service-agreement': (c) => {
    paper(c, 150, 60, 180, 240);
    paper(c, 260, 100, 180, 240);
    seal(c, 470, 290);
  },
  'shareholders-agreement': (c) => {
    paper(c, 140, 70);
    c.circle(450, 200, 100, WHITE);
    c.wedge(450, 200, 92, 0, 150, BRAND);
    c.wedge(450, 200, 92, 150, 260, ACCENT);
    c.wedge(450, 200, 92, 260, 360, GREY);
    c.ring(450, 200, 100, 8, INK);
  },
  'trademark-registration': (c) => {
    c.poly(
      [
        [320, 50],
        [470, 100],
        [450, 260],
        [320, 350],
        [190, 260],
        [170, 100],
      ],
      WHITE,
    );
    c.poly(
      [
        [320, 80],
        [440, 118],
        [424, 250],
        [320, 322],
        [216, 250],
        [200, 118],
      ],
      BRAND,
    );
    const star = [];
    for (let i = 0; i < 10; i++) {
      const r = i % 2 ? 34 : 80;
      const a = (Math.PI / 5) * i - Math.PI / 2;
      star.push([320 + r * Math.cos(a), 200 + r * Math.sin(a)]);
    }
    c.poly(star, ACCENT);
  },
  'copyright-licence': (c) => {
    c.circle(320, 200, 140, WHITE);
    c.ring(320, 200, 120, 20, BRAND);
    c.ring(320, 200, 62, 26, ACCENT, 45, 315);
    paper(c, 470, 150, 110, 150);
  },
  'ip-ownership': (c) => {
    c.circle(320, 170, 100, ACCENT);
    c.circle(290, 140, 26, WHITE);
    c.round(270, 250, 100, 70, 12, GREY);
    for (let i = 0; i < 3; i++) c.rect(270, 262 + i * 18, 100, 6, INK);
    c.round(295, 322, 50, 20, 8, INK);
    for (let i = 0; i < 8; i++) {
      const a = (Math.PI / 4) * i;
      c.line(
        320 + Math.cos(a) * 120,
        170 + Math.sin(a) * 120,
        320 + Math.cos(a) * 150,
        170 + Math.sin(a) * 150,
        10,
        WHITE,
      );
    }
  },
  'employment-contract': (c) => {
    c.ring(320, 130, 48, 16, INK, 180, 360);
    c.rect(272, 128, 16, 20, INK);
    c.rect(352, 128, 16, 20, INK);
    c.round(170, 140, 300, 200, 22, BRAND);
    c.rect(170, 220, 300, 12, INK);
    c.round(298, 205, 44, 42, 8, ACCENT);
    paper(c, 450, 190, 120, 160);
  },
  'employee-handbook': (c) => {
    c.poly(
      [
        [140, 90],
        [318, 120],
        [318, 340],
        [140, 310],
      ],
      WHITE,
    );
    c.poly(
      [
        [500, 90],
        [322, 120],
        [322, 340],
        [500, 310],
      ],
      WHITE,
    );
    c.rect(316, 118, 8, 224, BRAND);
    for (let i = 0; i < 6; i++) {
      c.line(165, 135 + i * 28, 295, 157 + i * 28, 7, GREY);
      c.line(345, 157 + i * 28, 475, 135 + i * 28, 7, GREY);
    }
    c.poly(
      [
        [440, 92],
        [470, 92],
        [470, 170],
        [455, 155],
        [440, 170],
      ],
      ACCENT,
    );
  },
  'termination-advice': (c) => {
    c.round(170, 70, 170, 280, 10, WHITE);
    c.round(186, 86, 138, 264, 6, BRAND);
    c.circle(300, 220, 9, ACCENT);
    c.line(380, 210, 520, 210, 26, ACCENT);
    c.poly(
      [
        [500, 160],
        [580, 210],
        [500, 260],
      ],
      ACCENT,
    );
  },
};

const SCHEMES = {
  contract: ['#0f3d3e', '#145052', '#ffffff', '#c9d3d3', '#1b1f23', '#f2c14e', '#2a7f62', '#e8eeee'],
  ip: ['#23395d', '#2c4a78', '#ffffff', '#c8d1e0', '#152238', '#f2c14e', '#3c8dbc', '#e6ebf3'],
  employment: ['#5b3a29', '#6e4a36', '#ffffff', '#dcd0c8', '#2a1a12', '#f2c14e', '#b5651d', '#f3ece6'],
};

const list = [
  ['contract-review', 'contract'],
  ['nda', 'contract'],
  ['service-agreement', 'contract'],
  ['shareholders-agreement', 'contract'],
  ['trademark-registration', 'ip'],
  ['copyright-licence', 'ip'],
  ['ip-ownership', 'ip'],
  ['employment-contract', 'employment'],
  ['employee-handbook', 'employment'],
  ['termination-advice', 'employment'],
];

for (const [name, scheme] of list) {
  const c = canvas();
  backdrop(c);
  DRAW[name](c);
  const png = encode(c.px, SCHEMES[scheme]);
  writeFileSync(path.join(out, `${name}.png`), png);
  console.log(`${name}.png ${png.length} bytes`);
}
