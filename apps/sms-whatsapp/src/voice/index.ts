export { VoiceCallsModule } from './voice-calls.module';
