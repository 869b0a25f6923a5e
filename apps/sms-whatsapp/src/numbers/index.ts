export { NumbersModule } from './numbers.module';
