import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { withExif } from './exif-photo';

/**
 * Writes examples/storefront.jpg, the sample photo of the README walkthrough: a small drawn storefront as a real
 * JPEG whose EXIF GPS puts it about 15 m from the walkthrough's task (Nanjing East Rd 300, 31.2352 N 121.4747 E),
 * inside the 100 m a photo task accepts. No capture time, so the review shows `taken_during_assignment: null`
 * rather than a date that would age.
 *
 *   npm run build && node dist/scripts/storefront-photo.js
 */
export const STOREFRONT_GPS = { latitude: 31.23533, longitude: 121.47475 };

const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="240">
  <rect width="320" height="240" fill="#9cc9e8"/>
  <rect x="20" y="40" width="280" height="200" fill="#e9dcc5"/>
  <rect x="20" y="40" width="280" height="34" fill="#7a3b2e"/>
  ${[0, 1, 2, 3, 4, 5, 6].map((i) => `<rect x="${20 + i * 40}" y="74" width="20" height="22" fill="#c0392b"/>`).join('')}
  ${[0, 1, 2, 3, 4, 5, 6].map((i) => `<rect x="${40 + i * 40}" y="74" width="20" height="22" fill="#f4f1ea"/>`).join('')}
  <rect x="40" y="112" width="120" height="84" fill="#5b7c8d" stroke="#3e2a20" stroke-width="6"/>
  <rect x="190" y="112" width="80" height="128" fill="#6b4a35" stroke="#3e2a20" stroke-width="6"/>
  <rect x="206" y="136" width="48" height="30" fill="#f7e27e"/>
  <circle cx="258" cy="180" r="4" fill="#d4af37"/>
  <rect x="0" y="232" width="320" height="8" fill="#8a8a8a"/>
</svg>`;

async function main(): Promise<void> {
  const base = await sharp(Buffer.from(SVG)).jpeg({ quality: 80 }).toBuffer();
  const out = join(__dirname, '../../examples/storefront.jpg');
  const photo = withExif(base, { gps: STOREFRONT_GPS });
  writeFileSync(out, photo);
  console.log(
    `${out}: ${photo.length} bytes, EXIF GPS ${STOREFRONT_GPS.latitude}, ${STOREFRONT_GPS.longitude}`,
  );
}

if (require.main === module) void main();
