import type { RealtimeRegion } from '@switchboard/contracts';

/** Regions an app can be created in (the API's published regions). */
export const REALTIME_REGIONS: RealtimeRegion[] = [
  { id: 'us1', name: 'United States' },
  { id: 'eu1', name: 'European Union' },
];
