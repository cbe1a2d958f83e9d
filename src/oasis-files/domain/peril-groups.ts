/**
 * OED peril codes and peril groups (OED 5.0.0 `perils.covered`, as ods-tools ships it): a
 * LocPerilsCovered / PolPerilsCovered value is a ';'-list of codes, each a single peril or a group.
 */
export const PERIL_GROUPS: Readonly<Record<string, readonly string[]>> = {
  QQ1: ['QEQ', 'QFF', 'QTS', 'QSL', 'QLS', 'QLF'],
  WW2: ['WTC', 'WEC'],
  WW1: ['WTC', 'WEC', 'WSS'],
  OO1: ['ORF', 'OSF'],
  MM1: ['MNT', 'MTR'],
  XX1: ['XSL', 'XTD', 'XHL', 'XLT'],
  ZZ1: ['ZSN', 'ZIC', 'ZFZ', 'ZST'],
  XZ1: ['XSL', 'XTD', 'XHL', 'XLT', 'ZSN', 'ZIC', 'ZFZ', 'ZST'],
  BB1: ['BBF', 'BSK'],
  PP1: ['PNF'],
  GG1: ['XCH'],
  CC1: ['CSB', 'CPD'],
  VV1: ['VVA', 'VVE', 'VVL'],
  AA1: [
    'BBF',
    'BFR',
    'BSK',
    'CPD',
    'CSB',
    'MNT',
    'MTR',
    'ORF',
    'OSF',
    'PNF',
    'QEQ',
    'QFF',
    'QLF',
    'QLS',
    'QSL',
    'QTS',
    'SBU',
    'SSD',
    'VVA',
    'VVE',
    'VVL',
    'WEC',
    'WSS',
    'WTC',
    'XCH',
    'XHL',
    'XLT',
    'XSL',
    'XTD',
    'ZFZ',
    'ZIC',
    'ZSN',
    'ZST',
  ],
};

export const SINGLE_PERILS: readonly string[] = PERIL_GROUPS.AA1;

/** The single perils a ';'-list of OED codes covers; an unknown code covers nothing. */
export function perilsCovered(list: string): Set<string> {
  const out = new Set<string>();
  for (const raw of list.split(';')) {
    const code = raw.trim();
    if (PERIL_GROUPS[code]) for (const p of PERIL_GROUPS[code]) out.add(p);
    else if (SINGLE_PERILS.includes(code)) out.add(code);
  }
  return out;
}
