"""oasislmf's own reinsurance file generation on one acceptance case, for comparison with catintel's.

Runs oasislmf's RI step (preparation.reinsurance_layer.write_files_for_reinsurance, fed as its
generate-oasis-files step feeds it) on a case's OED location, account, ri_info and ri_scope files and
the direct Oasis files of DIRECT_DIR (fm_summary_map.csv, fm_xref.csv), writes RI_n/*.csv to OUT_DIR
and prints the sha256 of each file. The digests in fixtures/oasislmf-ri-files-2.5.8.json were made
with oasislmf 2.5.8 on ../shared/data/oasis_fm_validation/<case> with DIRECT_DIR = <case>/expected:

    python scripts/oasislmf-ri-reference.py CASE_DIR DIRECT_DIR OUT_DIR

The full generate-oasis-files cannot be used on reinsurance1 and reinsurance2: oasislmf 2.5.8 stops on
their location files' CondTag values, which no account condition names.
"""
import glob
import hashlib
import json
import logging
import os
import sys

import numpy as np
import pandas as pd
from ods_tools.oed import OedExposure
from oasislmf.preparation.reinsurance_layer import write_files_for_reinsurance
from oasislmf.preparation.summaries import merge_oed_to_mapping
from oasislmf.pytools.common.data import fm_xref_dtype
from oasislmf.utils.data import DEFAULT_ADDITIONAL_FIELDS, get_dataframe, prepare_oed_exposure

case_dir, direct_dir, out_dir = sys.argv[1:4]
exposure = OedExposure(
    location=os.path.join(case_dir, 'location.csv'), account=os.path.join(case_dir, 'account.csv'),
    ri_info=os.path.join(case_dir, 'ri_info.csv'), ri_scope=os.path.join(case_dir, 'ri_scope.csv'),
    use_field=True, check_oed=False, additional_fields=DEFAULT_ADDITIONAL_FIELDS)
prepare_oed_exposure(exposure)

summary_map = get_dataframe(src_fp=os.path.join(direct_dir, 'fm_summary_map.csv'), lowercase_cols=False)
# loc_id is the direct files' location id: give each location row the id its summary map rows carry.
location = exposure.location.dataframe
for col in ['PortNumber', 'AccNumber', 'LocNumber']:
    location[col] = location[col].astype(str)
ids = summary_map[['PortNumber', 'AccNumber', 'LocNumber', 'loc_id']].drop_duplicates().astype(
    {'PortNumber': str, 'AccNumber': str, 'LocNumber': str})
location = location.drop(columns=[c for c in ['loc_id'] if c in location]).merge(ids, on=['PortNumber', 'AccNumber', 'LocNumber'], how='left')
location['loc_id'] = location['loc_id'].astype('Int64')
summary_map['loc_id'] = summary_map['loc_id'].astype('Int64')

# As generate-oasis-files builds its input to the RI step.
xref = merge_oed_to_mapping(summary_map, location, ['loc_id'], {'LocGroup': '', 'ReinsTag': '', 'CountryCode': ''})
xref[['PortNumber', 'AccNumber', 'PolNumber']] = xref[['PortNumber', 'AccNumber', 'PolNumber']].astype(str)
account = exposure.account.dataframe
account[['PortNumber', 'AccNumber', 'PolNumber']] = account[['PortNumber', 'AccNumber', 'PolNumber']].astype(str)
xref = merge_oed_to_mapping(xref, account, ['PortNumber', 'AccNumber', 'PolNumber'],
                            {'CedantName': '', 'ProducerName': '', 'LOB': '', 'PolInceptionDate': '', 'PolExpiryDate': ''})
xref = xref.sort_values(by='agg_id', kind='stable')

os.makedirs(out_dir, exist_ok=True)
fm_xref = pd.read_csv(os.path.join(direct_dir, 'fm_xref.csv'))
fm_xref_bin = np.zeros(len(fm_xref), dtype=fm_xref_dtype)
for name in fm_xref_dtype.names:
    fm_xref_bin[name] = fm_xref[name].to_numpy()
fm_xref_path = os.path.join(out_dir, 'fm_xref.bin')
fm_xref_bin.tofile(fm_xref_path)

write_files_for_reinsurance(exposure.ri_info.dataframe, exposure.ri_scope.dataframe, xref, out_dir, fm_xref_path, True,
                            logging.getLogger('oasislmf-ri-reference'))
digests = {os.path.relpath(f, out_dir): hashlib.sha256(open(f, 'rb').read()).hexdigest()
           for f in sorted(glob.glob(os.path.join(out_dir, 'RI_*', '*.csv')))}
print(json.dumps(digests, indent=1))
