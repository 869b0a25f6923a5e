export { NumbersModule } from './numbers.module';
export { stockableNumber } from './number-spelling';
