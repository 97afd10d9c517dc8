/**
 * The format and pixel size of an image from its first bytes, without decoding it: PNG (signature + IHDR)
 * or JPEG (SOI, then the first start-of-frame segment). Anything else is undefined, so a crop never hands
 * the image library a format it would sniff on its own (an SVG named `.jpg`, a TIFF, a GIF).
 */
export interface ImageHeader {
  format: 'jpeg' | 'png';
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Start-of-frame markers (they carry the size): C0–CF except DHT (C4), JPG (C8) and DAC (CC). */
const isStartOfFrame = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

function pngHeader(b: Uint8Array): ImageHeader | undefined {
  if (b.length < 24 || !PNG_SIGNATURE.every((v, i) => b[i] === v)) return undefined;
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (String.fromCharCode(b[12], b[13], b[14], b[15]) !== 'IHDR') return undefined;
  return { format: 'png', width: v.getUint32(16), height: v.getUint32(20) };
}

function jpegHeader(b: Uint8Array): ImageHeader | undefined {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return undefined;
  let i = 2;
  while (i + 3 < b.length) {
    if (b[i] !== 0xff) return undefined;
    let m = b[i + 1];
    while (m === 0xff && i + 2 < b.length) m = b[++i + 1];
    i += 2;
    if (m === 0x01 || (m >= 0xd0 && m <= 0xd7)) continue;
    if (m === 0xd9 || m === 0xda || i + 1 >= b.length) return undefined;
    const len = (b[i] << 8) | b[i + 1];
    if (len < 2) return undefined;
    if (isStartOfFrame(m)) {
      if (i + 7 > b.length) return undefined;
      return { format: 'jpeg', height: (b[i + 3] << 8) | b[i + 4], width: (b[i + 5] << 8) | b[i + 6] };
    }
    i += len;
  }
  return undefined;
}

/** The image's format and size from its header, or undefined when it is not a JPEG or PNG. */
export function imageHeader(bytes: Uint8Array): ImageHeader | undefined {
  return pngHeader(bytes) ?? jpegHeader(bytes);
}

/** What the first bytes look like, for a message (`an SVG or XML file`, `a GIF`, or the bytes in hex). */
export function describeMagic(bytes: Uint8Array): string {
  const head = Buffer.from(bytes.subarray(0, 16)).toString('latin1');
  if (/^\s*</.test(head)) return 'an SVG, XML or HTML file';
  if (head.startsWith('GIF8')) return 'a GIF';
  if (head.startsWith('II*\0') || head.startsWith('MM\0*')) return 'a TIFF';
  if (head.startsWith('RIFF')) return 'a RIFF file (WebP?)';
  if (bytes.length === 0) return 'an empty file';
  return `bytes ${Buffer.from(bytes.subarray(0, 8)).toString('hex')}`;
}
