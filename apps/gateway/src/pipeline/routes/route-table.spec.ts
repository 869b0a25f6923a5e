import { RouteTable } from './route-table';

describe(RouteTable.name, () => {
  it('lists the methods a concrete path is served with, HEAD beside GET, for 405 answers', () => {
    const table = new RouteTable();
    table.add('GET', '/v1/realtime/apps/:id');
    table.add('PATCH', '/v1/realtime/apps/:id');
    table.add('HEAD', '/v1/realtime/apps/:id');
    table.add('GET', '/v1/workspace');
    expect(table.methodsFor('/v1/realtime/apps/rap_123')).toEqual(['GET', 'HEAD', 'PATCH']);
    expect(table.methodsFor('/v1/realtime/apps/rap_123/keys')).toEqual([]);
    expect(table.methodsFor('/v1/workspace/')).toEqual(['GET', 'HEAD']);
  });
});
