import type { Page, TokenPage } from '../pagination';
import type { Rpc } from '../rpc';
import type {
  ChannelGroup,
  CreateConnectorReply,
  CreateConnectorRequest,
  ListChannelGroupsRequest,
  ListWhatsAppBusinessAccountsRequest,
  ListWhatsAppNumberEventsRequest,
  ListWhatsAppNumbersRequest,
  WhatsAppBusinessAccount,
  WhatsAppBusinessAccountRefRequest,
  WhatsAppConnectSubjects,
  WhatsAppNumber,
  WhatsAppNumberEvent,
  WhatsAppNumberIdRequest,
  WhatsAppNumberProfile,
} from './connect';

/** Connecting WhatsApp numbers and reading them, by subject. */
export interface WhatsAppConnectRpc {
  [WhatsAppConnectSubjects.CreateConnector]: Rpc<CreateConnectorRequest, CreateConnectorReply>;
  [WhatsAppConnectSubjects.ListChannelGroups]: Rpc<
    ListChannelGroupsRequest,
    TokenPage<ChannelGroup>
  >;
  [WhatsAppConnectSubjects.ListNumbers]: Rpc<ListWhatsAppNumbersRequest, Page<WhatsAppNumber>>;
  [WhatsAppConnectSubjects.GetNumber]: Rpc<WhatsAppNumberIdRequest, WhatsAppNumber>;
  [WhatsAppConnectSubjects.ListNumberEvents]: Rpc<
    ListWhatsAppNumberEventsRequest,
    Page<WhatsAppNumberEvent>
  >;
  [WhatsAppConnectSubjects.GetNumberProfile]: Rpc<WhatsAppNumberIdRequest, WhatsAppNumberProfile>;
  [WhatsAppConnectSubjects.ListBusinessAccounts]: Rpc<
    ListWhatsAppBusinessAccountsRequest,
    Page<WhatsAppBusinessAccount>
  >;
  [WhatsAppConnectSubjects.GetBusinessAccount]: Rpc<
    WhatsAppBusinessAccountRefRequest,
    WhatsAppBusinessAccount
  >;
}
