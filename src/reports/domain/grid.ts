/**
 * UTM and US National Grid coordinates of a WGS84 point (ICS-209 blocks 23 and 26). UTM: the Krüger series
 * to order n^3 as given by Karney (2011), "Transverse Mercator with an accuracy of a few nanometers",
 * J. Geodesy 85, 475-485 (the series in n; sub-millimetre within a zone at this order); WGS84 a = 6378137 m, f = 1/298.257223563,
 * k0 = 0.9996, false easting 500 km, false northing 10,000 km south of the equator (NGA, DMA TM 8358.2).
 * USNG (FGDC-STD-011-2001) is MGRS on WGS84/NAD83: latitude band, 100 km square letters (column sets
 * A-H, J-R, S-Z by zone; rows A-V without I and O, offset by F in even zones), then easting and northing
 * within the square. The Norway and Svalbard zone exceptions do not touch the United States and are not applied.
 */
const A = 6378137;
const F = 1 / 298.257223563;
const K0 = 0.9996;

const N = F / (2 - F);
const A_ = (A / (1 + N)) * (1 + (N * N) / 4 + N ** 4 / 64);
const ALPHA = [N / 2 - (2 / 3) * N * N + (5 / 16) * N ** 3, (13 / 48) * N * N - (3 / 5) * N ** 3, (61 / 240) * N ** 3];

export interface Utm {
  zone: number;
  band: string;
  easting: number;
  northing: number;
  hemisphere: 'N' | 'S';
}

const BANDS = 'CDEFGHJKLMNPQRSTUVWX';

export function toUtm(lat: number, lng: number): Utm | null {
  if (!(lat >= -80 && lat <= 84) || !(lng >= -180 && lng <= 180)) return null;
  const zone = Math.min(60, Math.floor((lng + 180) / 6) + 1);
  const lng0 = (zone - 1) * 6 - 180 + 3;
  const phi = (lat * Math.PI) / 180;
  const lam = ((lng - lng0) * Math.PI) / 180;
  const e = Math.sqrt(F * (2 - F));
  const t = Math.sinh(Math.atanh(Math.sin(phi)) - e * Math.atanh(e * Math.sin(phi)));
  const xi1 = Math.atan2(t, Math.cos(lam));
  const eta1 = Math.atanh(Math.sin(lam) / Math.sqrt(1 + t * t));
  let xi = xi1;
  let eta = eta1;
  for (let j = 1; j <= 3; j++) {
    xi += ALPHA[j - 1] * Math.sin(2 * j * xi1) * Math.cosh(2 * j * eta1);
    eta += ALPHA[j - 1] * Math.cos(2 * j * xi1) * Math.sinh(2 * j * eta1);
  }
  const easting = 500000 + K0 * A_ * eta;
  let northing = K0 * A_ * xi;
  if (lat < 0) northing += 10000000;
  const band = BANDS[Math.min(BANDS.length - 1, Math.floor((lat + 80) / 8))];
  return { zone, band, easting, northing, hemisphere: lat < 0 ? 'S' : 'N' };
}

export function formatUtm(u: Utm): string {
  return `Zone ${u.zone}${u.hemisphere} ${Math.floor(u.easting)} mE ${Math.floor(u.northing)} mN (WGS84)`;
}

const COLS = ['ABCDEFGH', 'JKLMNPQR', 'STUVWXYZ'];
const ROWS = 'ABCDEFGHJKLMNPQRSTUV';

/** USNG to 1 m, e.g. "18S UJ 23487 06483". */
export function toUsng(lat: number, lng: number): string | null {
  const u = toUtm(lat, lng);
  if (!u) return null;
  const col = COLS[(u.zone - 1) % 3][Math.floor(u.easting / 100000) - 1];
  const row = ROWS[(Math.floor(u.northing / 100000) + (u.zone % 2 === 0 ? 5 : 0)) % 20];
  const e = String(Math.floor(u.easting % 100000)).padStart(5, '0');
  const n = String(Math.floor(u.northing % 100000)).padStart(5, '0');
  return `${u.zone}${u.band} ${col}${row} ${e} ${n}`;
}
