import { GRAPH_TOKEN_UNSET } from './graph-response';
import { graphLinkError } from './graph-app-error';
import { GraphError } from './whatsapp-graph';

describe('graphLinkError', () => {
  it('maps the link to Meta to E05008, E05009 and E05007, and leaves request refusals to the area', () => {
    expect(graphLinkError(new GraphError(GRAPH_TOKEN_UNSET, false, 0, null))?.code).toBe('E05008');
    expect(graphLinkError(new GraphError('refused', false, 401, 190))).toMatchObject({
      code: 'E05009',
      vendorCode: '190',
    });
    expect(graphLinkError(new GraphError('busy', true, 429, 130429, null, 2_500))).toMatchObject({
      code: 'E05007',
      vendorCode: '130429',
      headers: { 'Retry-After': '3' },
    });
    expect(graphLinkError(new GraphError('down', true, 0, null))?.code).toBe('E05007');
    expect(graphLinkError(new GraphError('bad pin', false, 400, 133005))).toBeNull();
    expect(graphLinkError(new Error('other'))).toBeNull();
  });
});
