export { SmsWhatsappPreferenceStatesConsumer } from './preference-states.consumer';
export { stoppedAmong } from './preference-checks';
export { stoppedByPreferences } from './preference-states.repository';
export type { PreferenceCheck, ProjectedStatement } from './preference-checks';
