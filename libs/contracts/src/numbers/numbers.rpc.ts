import type { Page } from '../pagination';
import type { NoContent, Rpc } from '../rpc';
import type { NumbersSubjects } from './numbers';
import type {
  AllocatedNumber,
  AvailableNumber,
  AvailableNumberRequest,
  CreateNumbersOrderRequest,
  ListAvailableNumbersRequest,
  ListNumbersOrdersRequest,
  ListNumbersRequest,
  ListStockRequest,
  NumberIdRequest,
  NumbersOrder,
  NumbersOrderIdRequest,
  StockedNumber,
  StockedNumberRequest,
  StockNumberRequest,
} from './numbers';
import type { SmsSenderSubjects } from './sms-senders';
import type {
  ListSmsSendersRequest,
  RegisterSmsSenderRequest,
  SmsSender,
  SmsSenderIdRequest,
} from './sms-senders';

/** The numbers operations of the sms-whatsapp service, by subject. */
export interface NumbersRpc {
  [NumbersSubjects.ListNumbers]: Rpc<ListNumbersRequest, Page<AllocatedNumber>>;
  [NumbersSubjects.GetNumber]: Rpc<NumberIdRequest, AllocatedNumber>;
  [NumbersSubjects.ReleaseNumber]: Rpc<NumberIdRequest, NoContent>;
  [NumbersSubjects.ListAvailable]: Rpc<ListAvailableNumbersRequest, Page<AvailableNumber>>;
  [NumbersSubjects.GetAvailable]: Rpc<AvailableNumberRequest, AvailableNumber>;
  [NumbersSubjects.CreateOrder]: Rpc<CreateNumbersOrderRequest, NumbersOrder>;
  [NumbersSubjects.ListOrders]: Rpc<ListNumbersOrdersRequest, Page<NumbersOrder>>;
  [NumbersSubjects.GetOrder]: Rpc<NumbersOrderIdRequest, NumbersOrder>;
  [NumbersSubjects.StockNumber]: Rpc<StockNumberRequest, StockedNumber>;
  [NumbersSubjects.ListStock]: Rpc<ListStockRequest, Page<StockedNumber>>;
  [NumbersSubjects.UnstockNumber]: Rpc<StockedNumberRequest, NoContent>;
  [SmsSenderSubjects.RegisterSender]: Rpc<RegisterSmsSenderRequest, SmsSender>;
  [SmsSenderSubjects.ListSenders]: Rpc<ListSmsSendersRequest, Page<SmsSender>>;
  [SmsSenderSubjects.DeleteSender]: Rpc<SmsSenderIdRequest, NoContent>;
}
