import { Module } from '@nestjs/common';
import { NumbersApiModule } from '../numbers/numbers-api.module';
import { VoiceAdminController, VoiceController } from './voice.controller';

/** Voice call records: the workspace's reads and the SIP platform's reports. */
@Module({
  imports: [NumbersApiModule],
  controllers: [VoiceController, VoiceAdminController],
})
export class VoiceApiModule {}
