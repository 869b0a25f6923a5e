export { SmsWhatsappPreferenceStatesConsumer } from './preference-states.consumer';
export { stoppedAmong, stoppedByPreferences } from './preference-checks';
export type { PreferenceCheck, ProjectedStatement } from './preference-checks';
