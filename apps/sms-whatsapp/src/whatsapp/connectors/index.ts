export { ConnectorsModule } from './connectors.module';
