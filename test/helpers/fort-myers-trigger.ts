/**
 * The suite's reference hurricane trigger: 100 kt sustained wind within 50 km of Fort Myers, which the
 * shared best track of Ian (al092022) reaches at its landfall on 2022-09-28. The trigger tests create it
 * through the API (the body of POST /triggers) or the CLI (the options of `catintel trigger create`).
 */
export const FORT_MYERS_TRIGGER = {
  name: 'Fort Myers 100 kt',
  peril: 'hurricane',
  lat: 26.64,
  lng: -81.87,
  radius_km: 50,
  threshold_type: 'wind_speed_kt',
  threshold_value: 100,
};

/** The same trigger as `catintel trigger create` options: `--name 'Fort Myers 100 kt' --peril hurricane ...`. */
export const FORT_MYERS_OPTIONS: string[] = Object.entries(FORT_MYERS_TRIGGER).flatMap(([key, value]) => [
  `--${key.replace(/_/g, '-')}`,
  String(value),
]);
