import { ProductServiceApps, serviceNameOf } from '@switchboard/contracts';
import { productServices } from './services';

describe('productServices', () => {
  it('boots every service of the contracts list once, under its transport name', () => {
    expect(productServices.map((service) => service.name)).toEqual(
      ProductServiceApps.map(serviceNameOf),
    );
  });

  it('starts the webhooks service, the consumer of every event, before any service that emits them', () => {
    // The in-process bus keeps nothing: a relay publishing before the consumer subscribed would
    // mark its events published with nobody to take them.
    expect(productServices[0].name).toBe('webhooks');
  });
});
