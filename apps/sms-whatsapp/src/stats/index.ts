export { StatsModule } from './stats.module';
export { StatsRollupsConsumer } from './stats-rollups.consumer';
export { foldSmsEvents, smsFoldStatement } from './sms-stats-fold';
