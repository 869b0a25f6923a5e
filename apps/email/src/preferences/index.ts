export { EmailPreferenceStatesConsumer } from './preference-states.consumer';
