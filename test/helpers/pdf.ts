/**
 * Reads the PDFs catintel writes (briefing, ICS-209) the way a person sees them: page count, the text of a
 * page, a page as an image. MuPDF's own WebAssembly build (npm `mupdf`) does the reading: an independent PDF
 * engine, not the library that wrote the file, and nothing to install outside npm (no poppler, no root).
 */
import fs from 'node:fs';
import * as mupdf from 'mupdf';

function open(file: string): mupdf.Document {
  return mupdf.Document.openDocument(fs.readFileSync(file), 'application/pdf');
}

export function pageCount(file: string): number {
  return open(file).countPages();
}

/** The text layer of one page (0-based), or of every page joined when `page` is left out. */
export function pageText(file: string, page?: number): string {
  const doc = open(file);
  const pages = page === undefined ? [...Array(doc.countPages()).keys()] : [page];
  return pages.map((p) => doc.loadPage(p).toStructuredText().asText()).join('\n');
}

/** One page (0-based) rendered at `dpi` on white, as RGB pixels: 3 bytes a pixel, rows top to bottom. */
export function pagePixels(file: string, page = 0, dpi = 100): { width: number; height: number; rgb: Uint8Array } {
  const pix = open(file)
    .loadPage(page)
    .toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceRGB, false, true);
  const [width, height, stride] = [pix.getWidth(), pix.getHeight(), pix.getStride()];
  const raw = pix.getPixels();
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) rgb.set(raw.subarray(y * stride, y * stride + width * 3), y * width * 3);
  return { width, height, rgb };
}
