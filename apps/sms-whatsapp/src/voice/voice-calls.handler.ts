import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { VoiceSubjects } from '@switchboard/contracts';
import type {
  ListVoiceCallsRequest,
  ReportVoiceCallRequest,
  VoiceCallIdRequest,
} from '@switchboard/contracts';
import { Handles, requestContextOf } from '@switchboard/platform';
import { VoiceCallsService } from './voice-calls.service';

/** Transport handlers of voice call records. */
@Controller()
export class VoiceCallsHandler {
  constructor(private readonly calls: VoiceCallsService) {}

  @Handles(VoiceSubjects.ReportCall)
  report(@Payload() input: ReportVoiceCallRequest, @Ctx() context: BaseRpcContext) {
    return this.calls.report(requestContextOf(context), input);
  }

  @Handles(VoiceSubjects.ListCalls)
  list(@Payload() input: ListVoiceCallsRequest, @Ctx() context: BaseRpcContext) {
    return this.calls.list(requestContextOf(context), input);
  }

  @Handles(VoiceSubjects.GetCall)
  get(@Payload() input: VoiceCallIdRequest, @Ctx() context: BaseRpcContext) {
    return this.calls.get(requestContextOf(context), input.call_id);
  }
}
