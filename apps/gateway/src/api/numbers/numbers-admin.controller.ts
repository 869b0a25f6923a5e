import { Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { NumbersSubjects, SmsSenderSubjects } from '@switchboard/contracts';
import type { FastifyRequest } from 'fastify';
import { ValidBody, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import {
  ListSmsSendersQuery,
  ListStockQuery,
  RegisterSmsSenderDto,
  StockNumberDto,
  UnstockNumberQuery,
} from './numbers-admin.dto';
import { OperatorForwarder } from './operator-forwarder';

const operator = { tag: 'Operator', auth: 'operator', rateLimit: 'admin' } as const;
const operatorList = { ...operator, paginated: true } as const;

/** The operator's stock of numbers (contract section 9), answered by the sms-whatsapp service. */
@Controller('admin/v1/numbers')
export class NumbersAdminController {
  constructor(private readonly operator: OperatorForwarder) {}

  @Post()
  @HttpCode(201)
  @Route({
    ...operator,
    summary: 'Stock a number held with a carrier (country from the number)',
    body: StockNumberDto,
    response: { status: 201, description: 'The stocked number' },
  })
  async stock(@ValidBody() body: StockNumberDto, @Req() request: FastifyRequest) {
    if (body.workspace_id) await this.operator.requireWorkspace(body.workspace_id);
    return this.operator.send(NumbersSubjects.StockNumber, { ...body }, request);
  }

  @Get()
  @Route({
    ...operatorList,
    summary: 'List the stock, newest first, with the workspace holding each number',
    query: ListStockQuery,
    response: { status: 200, description: 'A page of stocked numbers' },
  })
  list(@ValidQuery() query: ListStockQuery, @Req() request: FastifyRequest) {
    return this.operator.send(NumbersSubjects.ListStock, { ...query }, request);
  }

  @Delete(':number')
  @HttpCode(204)
  @Route({
    ...operator,
    summary:
      'Remove a number no workspace holds from stock (a short code in several countries names one)',
    query: UnstockNumberQuery,
    response: { status: 204, description: 'Removed' },
  })
  async unstock(
    @Param('number') number: string,
    @ValidQuery() query: UnstockNumberQuery,
    @Req() request: FastifyRequest,
  ): Promise<void> {
    await this.operator.send(NumbersSubjects.UnstockNumber, { number, ...query }, request);
  }
}

/** The alphanumeric SMS senders the operator registers for a workspace. */
@Controller('admin/v1/workspaces/:workspace_id/sms-senders')
export class SmsSendersAdminController {
  constructor(private readonly operator: OperatorForwarder) {}

  @Post()
  @HttpCode(201)
  @Route({
    ...operator,
    summary: 'Register an alphanumeric SMS sender for a workspace',
    body: RegisterSmsSenderDto,
    response: { status: 201, description: 'The sender' },
  })
  register(
    @Param('workspace_id') workspaceId: string,
    @ValidBody() body: RegisterSmsSenderDto,
    @Req() request: FastifyRequest,
  ) {
    const payload = { workspace_id: workspaceId, ...body };
    return this.operator.sendFor(workspaceId, SmsSenderSubjects.RegisterSender, payload, request);
  }

  @Get()
  @Route({
    ...operatorList,
    summary: "List a workspace's alphanumeric SMS senders, newest first",
    query: ListSmsSendersQuery,
    response: { status: 200, description: 'A page of senders' },
  })
  list(
    @Param('workspace_id') workspaceId: string,
    @ValidQuery() query: ListSmsSendersQuery,
    @Req() request: FastifyRequest,
  ) {
    const payload = { workspace_id: workspaceId, ...query };
    return this.operator.sendFor(workspaceId, SmsSenderSubjects.ListSenders, payload, request);
  }

  @Delete(':sender_id')
  @HttpCode(204)
  @Route({
    ...operator,
    summary: "Delete one of a workspace's SMS senders",
    response: { status: 204, description: 'Deleted' },
  })
  async remove(
    @Param('workspace_id') workspaceId: string,
    @Param('sender_id') senderId: string,
    @Req() request: FastifyRequest,
  ): Promise<void> {
    const payload = { workspace_id: workspaceId, sender_id: senderId };
    await this.operator.sendFor(workspaceId, SmsSenderSubjects.DeleteSender, payload, request);
  }
}
