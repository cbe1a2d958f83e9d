/**
 * The benches' generated US portfolio (scripts/make-us-portfolio.ts): `rows` locations spread as the 2020
 * county population centres are, from one seed, so every bench and every run scores the same file.
 */
import path from 'node:path';
import { writeUsPortfolio } from '../scripts/make-us-portfolio.js';

export function writeBenchPortfolio(file: string, rows: number, sharedData: string, seed = 20260101): Promise<void> {
  return writeUsPortfolio(file, {
    rows,
    seed,
    cenPopPath: path.join(sharedData, 'exposure', 'CenPop2020_Mean_CO.txt'),
  });
}
