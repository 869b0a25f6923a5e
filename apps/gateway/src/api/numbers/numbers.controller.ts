import { Controller, Delete, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { NumbersSubjects } from '@switchboard/contracts';
import type { RequestContext } from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import { CallContext, ValidBody, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import {
  AvailableNumberQuery,
  CreateNumbersOrderDto,
  ListAvailableNumbersQuery,
  ListNumbersOrdersQuery,
  ListNumbersQuery,
} from './numbers.dto';

const numbers = { tag: 'Numbers', auth: 'api' } as const;
const list = { ...numbers, role: 'read', rateLimit: 'api_list', paginated: true } as const;
const read = { ...numbers, role: 'read', rateLimit: 'read' } as const;

/** The SDK's `bird.numbers`, `.available` and `.orders`, answered by the sms-whatsapp service. */
@Controller('v1/numbers')
export class NumbersController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get()
  @Route({
    ...list,
    summary: 'List the numbers allocated to the workspace, newest first, with filters',
    query: ListNumbersQuery,
    response: { status: 200, description: 'A page of numbers' },
  })
  list(@ValidQuery() query: ListNumbersQuery, @CallContext() context: RequestContext) {
    return this.services.send(NumbersSubjects.ListNumbers, { ...query }, context);
  }

  @Get('available')
  @Route({
    ...list,
    summary: "Search one country's numbers on sale (country_code required)",
    query: ListAvailableNumbersQuery,
    response: { status: 200, description: 'A page of available numbers' },
  })
  listAvailable(
    @ValidQuery() query: ListAvailableNumbersQuery,
    @CallContext() context: RequestContext,
  ) {
    return this.services.send(NumbersSubjects.ListAvailable, { ...query }, context);
  }

  @Get('available/:number')
  @Route({
    ...read,
    summary: 'Check one number is still on sale (404 when it is gone)',
    query: AvailableNumberQuery,
    response: { status: 200, description: 'The available number' },
  })
  getAvailable(
    @Param('number') number: string,
    @ValidQuery() query: AvailableNumberQuery,
    @CallContext() context: RequestContext,
  ) {
    return this.services.send(NumbersSubjects.GetAvailable, { number, ...query }, context);
  }

  @Post('orders')
  @HttpCode(201)
  @Route({
    ...numbers,
    role: 'write',
    rateLimit: 'write',
    summary: 'Order a number on sale: allocated at once (201, status completed, number_id)',
    body: CreateNumbersOrderDto,
    response: { status: 201, description: 'The completed order' },
  })
  order(@ValidBody() body: CreateNumbersOrderDto, @CallContext() context: RequestContext) {
    return this.services.send(NumbersSubjects.CreateOrder, { ...body }, context);
  }

  @Get('orders')
  @Route({
    ...list,
    summary: "List the workspace's number orders, newest first",
    query: ListNumbersOrdersQuery,
    response: { status: 200, description: 'A page of orders' },
  })
  listOrders(@ValidQuery() query: ListNumbersOrdersQuery, @CallContext() context: RequestContext) {
    return this.services.send(NumbersSubjects.ListOrders, { ...query }, context);
  }

  @Get('orders/:order_id')
  @Route({
    ...read,
    summary: 'Get a number order',
    response: { status: 200, description: 'The order' },
  })
  getOrder(@Param('order_id') orderId: string, @CallContext() context: RequestContext) {
    return this.services.send(NumbersSubjects.GetOrder, { order_id: orderId }, context);
  }

  @Get(':number_id')
  @Route({
    ...read,
    summary: 'Get a number allocated to the workspace',
    response: { status: 200, description: 'The number' },
  })
  get(@Param('number_id') numberId: string, @CallContext() context: RequestContext) {
    return this.services.send(NumbersSubjects.GetNumber, { number_id: numberId }, context);
  }

  @Delete(':number_id')
  @HttpCode(204)
  @Route({
    ...numbers,
    role: 'write',
    rateLimit: 'write',
    summary: 'Release a dedicated number: irreversible, the number goes back on sale',
    errors: [422],
    response: { status: 204, description: 'Released' },
  })
  async release(
    @Param('number_id') numberId: string,
    @CallContext() context: RequestContext,
  ): Promise<void> {
    await this.services.send(NumbersSubjects.ReleaseNumber, { number_id: numberId }, context);
  }
}
