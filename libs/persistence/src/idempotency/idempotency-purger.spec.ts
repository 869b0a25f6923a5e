import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import { idempotencyPurgerProvider, IdempotencyRecordsPurger } from './idempotency-purger';

describe(idempotencyPurgerProvider.name, () => {
  it("purges the schema's records with its retention, on a timer Nest starts and stops", async () => {
    const queries: Array<{ sql: string; params: unknown[] }> = [];
    const dataSource = {
      query: (sql: string, params: unknown[]) => {
        queries.push({ sql, params });
        return Promise.resolve([{ key: 'a' }, { key: 'b' }]);
      },
    };
    @Module({
      providers: [
        { provide: getDataSourceToken('example'), useValue: dataSource },
        idempotencyPurgerProvider('example', 36),
      ],
    })
    class ExampleModule {}
    const app = await NestFactory.createApplicationContext(ExampleModule, { logger: false });
    const purger = app.get(IdempotencyRecordsPurger);
    const timer = () => (purger as unknown as { timer?: NodeJS.Timeout }).timer;
    expect(timer()).toBeDefined();
    await expect(purger.run()).resolves.toBe(2);
    expect(queries[0].sql).toContain('DELETE FROM "example".idempotency_records');
    expect(queries[0].params).toEqual([36]);
    const clear = jest.spyOn(global, 'clearInterval');
    await app.close();
    expect(clear).toHaveBeenCalledWith(timer());
    clear.mockRestore();
  });
});
