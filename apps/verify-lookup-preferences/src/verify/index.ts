export { VerifyModule } from './verify.module';
export { VerificationOutcomes } from './verification-outcomes';
