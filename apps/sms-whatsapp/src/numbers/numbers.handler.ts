import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { NumbersSubjects } from '@switchboard/contracts';
import type {
  AvailableNumberRequest,
  CreateNumbersOrderRequest,
  ListAvailableNumbersRequest,
  ListNumbersOrdersRequest,
  ListNumbersRequest,
  ListStockRequest,
  NumberIdRequest,
  NumbersOrderIdRequest,
  StockedNumberRequest,
  StockNumberRequest,
} from '@switchboard/contracts';
import { Handles, requestContextOf } from '@switchboard/platform';
import { NumbersService } from './numbers.service';
import { StockService } from './stock.service';

/** Transport handlers of numbers, orders and the operator's stock; payloads are shape-checked. */
@Controller()
export class NumbersHandler {
  constructor(
    private readonly numbers: NumbersService,
    private readonly stock: StockService,
  ) {}

  @Handles(NumbersSubjects.ListNumbers)
  list(@Payload() input: ListNumbersRequest, @Ctx() context: BaseRpcContext) {
    return this.numbers.list(requestContextOf(context), input);
  }

  @Handles(NumbersSubjects.GetNumber)
  get(@Payload() input: NumberIdRequest, @Ctx() context: BaseRpcContext) {
    return this.numbers.get(requestContextOf(context), input.number_id);
  }

  @Handles(NumbersSubjects.ReleaseNumber)
  release(@Payload() input: NumberIdRequest, @Ctx() context: BaseRpcContext) {
    return this.numbers.release(requestContextOf(context), input.number_id);
  }

  @Handles(NumbersSubjects.ListAvailable)
  listAvailable(@Payload() input: ListAvailableNumbersRequest, @Ctx() context: BaseRpcContext) {
    return this.numbers.listAvailable(requestContextOf(context), input);
  }

  @Handles(NumbersSubjects.GetAvailable)
  getAvailable(@Payload() input: AvailableNumberRequest, @Ctx() context: BaseRpcContext) {
    return this.numbers.getAvailable(requestContextOf(context), input);
  }

  @Handles(NumbersSubjects.CreateOrder)
  order(@Payload() input: CreateNumbersOrderRequest, @Ctx() context: BaseRpcContext) {
    return this.numbers.order(requestContextOf(context), input);
  }

  @Handles(NumbersSubjects.ListOrders)
  listOrders(@Payload() input: ListNumbersOrdersRequest, @Ctx() context: BaseRpcContext) {
    return this.numbers.listOrders(requestContextOf(context), input);
  }

  @Handles(NumbersSubjects.GetOrder)
  getOrder(@Payload() input: NumbersOrderIdRequest, @Ctx() context: BaseRpcContext) {
    return this.numbers.getOrder(requestContextOf(context), input.order_id);
  }

  @Handles(NumbersSubjects.StockNumber)
  stockNumber(@Payload() input: StockNumberRequest, @Ctx() context: BaseRpcContext) {
    return this.stock.stock(requestContextOf(context), input);
  }

  @Handles(NumbersSubjects.ListStock)
  listStock(@Payload() input: ListStockRequest, @Ctx() context: BaseRpcContext) {
    return this.stock.list(requestContextOf(context), input);
  }

  @Handles(NumbersSubjects.UnstockNumber)
  unstock(@Payload() input: StockedNumberRequest, @Ctx() context: BaseRpcContext) {
    return this.stock.unstock(requestContextOf(context), input);
  }
}
