export { PreferencesModule } from './preferences.module';
export { ChannelStatementsConsumer } from './channel-statements.consumer';
