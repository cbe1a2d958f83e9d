/**
 * A Vega-Lite chart spec drawn headless: compiled to Vega and rendered to SVG by Vega's own renderer; PNG is
 * that SVG rasterised by resvg at twice the size. Both libraries load on first use only. The charts
 * (the EP curve, src/epcurve/chart.ts; the live loss band over advisories, src/event-loss/band-chart.ts)
 * build their spec and draw it here.
 */

export async function vegaLiteSvg(spec: Record<string, unknown>): Promise<string> {
  const [vega, vl] = await Promise.all([import('vega'), import('vega-lite')]);
  const compiled = vl.compile(spec as never).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

export async function svgPng(svg: string): Promise<Buffer> {
  const { Resvg } = await import('@resvg/resvg-js');
  const png = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: 2 },
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' },
  })
    .render()
    .asPng();
  return Buffer.from(png);
}
