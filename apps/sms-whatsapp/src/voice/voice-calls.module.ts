import { Module } from '@nestjs/common';
import { VoiceCallsHandler } from './voice-calls.handler';
import { VoiceCallsRepository } from './voice-calls.repository';
import { VoiceCallsService } from './voice-calls.service';

/** Voice call records reported by the operator's SIP platform. */
@Module({
  controllers: [VoiceCallsHandler],
  providers: [VoiceCallsRepository, VoiceCallsService],
})
export class VoiceCallsModule {}
