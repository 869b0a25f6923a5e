import { ProductServiceApps, serviceNameOf } from '@switchboard/contracts';
import { productServices } from './services';

describe('productServices', () => {
  it('boots every service of the contracts list once, under its transport name', () => {
    expect(productServices.map((service) => service.name)).toEqual(
      ProductServiceApps.map(serviceNameOf),
    );
  });
});
