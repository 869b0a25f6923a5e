import { AppError } from '@switchboard/platform';
import type { DocsIndexRepository } from './docs-index.repository';
import type { DocsIndexer } from './docs-indexer';
import { DocsService } from './docs.service';

describe(DocsService.name, () => {
  const repository = { search: jest.fn(), findPage: jest.fn() } as unknown as DocsIndexRepository;

  it('answers E05004 to searches and page reads until the index is built', async () => {
    const service = new DocsService({ ready: false } as DocsIndexer, repository);
    await expect(
      service.search({ q: 'idempotency', locale: 'en-us', limit: 10, contents: 'snippet' }),
    ).rejects.toMatchObject({ code: 'E05004' });
    await expect(service.readPage({ slug: 'index', locale: 'en-us' })).rejects.toBeInstanceOf(
      AppError,
    );
    expect(repository.search).not.toHaveBeenCalled();
  });
});
