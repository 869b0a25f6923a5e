import { WEBHOOK_EVENT_TYPES } from '@switchboard/contracts';
import { validateInto } from '../../pipeline/http/validation';
import { dtoSchema } from '../../pipeline/openapi/dto-schema';
import {
  CreateWebhookDto,
  ListAttemptsQuery,
  ListWebhooksQuery,
  ReplayWebhookDto,
  TestWebhookDto,
  toAttemptsRequest,
  toCreateRequest,
  toListRequest,
  toReplayRequest,
  toTestRequest,
  toUpdateRequest,
  UpdateWebhookDto,
} from './webhooks.dto';
import { validationFailure } from '@switchboard/testing';

const ID = 'whk_0123456789abcdefghijklmnop';

const failure = validationFailure;

const params = (run: () => unknown): string[] => failure(run).map((detail) => detail.param);

const create = (body: Record<string, unknown>) =>
  toCreateRequest(validateInto(CreateWebhookDto, body, 'body'));

/** Shapes only: the rules of the values are the webhooks service's (endpoint-requests.spec.ts). */
describe('webhook endpoint DTOs', () => {
  describe(CreateWebhookDto.name, () => {
    const valid = { url: 'https://hooks.example.com/bird', events: ['email.delivered'] };

    it('sends url, events and description as the create request', () => {
      expect(create({ ...valid, description: 'orders' })).toEqual({
        url: 'https://hooks.example.com/bird',
        events: ['email.delivered'],
        description: 'orders',
      });
      expect(create(valid)).toEqual(valid);
    });

    it('refuses unknown fields by name', () => {
      expect(failure(() => create({ ...valid, secret: 'whsec_x' }))).toEqual([
        { param: 'secret', message: 'is not a known field' },
      ]);
    });

    it('requires url and events', () => {
      expect(params(() => create({}))).toEqual(expect.arrayContaining(['url', 'events']));
    });

    it('refuses a url longer than 2048 characters with 422 naming url', () => {
      const url = `https://example.com/${'a'.repeat(2049 - 20)}`;
      expect(url).toHaveLength(2049);
      expect(params(() => create({ ...valid, url }))).toEqual(['url']);
      expect(create({ ...valid, url: url.slice(0, 2048) }).url).toHaveLength(2048);
    });

    it('lets http through: https only is the service rule (WEBHOOKS_ALLOW_PRIVATE_URLS)', () => {
      expect(create({ ...valid, url: 'http://localhost:3000/hook' }).url).toBe(
        'http://localhost:3000/hook',
      );
    });

    it('refuses a url that is not a string', () => {
      expect(params(() => create({ ...valid, url: 7 }))).toContain('url');
    });

    it('refuses an empty list of events and a list of 101', () => {
      expect(params(() => create({ ...valid, events: [] }))).toEqual(['events']);
      const many = Array.from({ length: 101 }, () => 'email.delivered');
      expect(params(() => create({ ...valid, events: many }))).toEqual(['events']);
      expect(params(() => create({ ...valid, events: 'email.delivered' }))).toContain('events');
      expect(params(() => create({ ...valid, events: ['email.delivered', 3] }))).toEqual([
        'events',
      ]);
    });

    it('accepts every type of the catalog, 54 at once', () => {
      expect(create({ ...valid, events: [...WEBHOOK_EVENT_TYPES] }).events).toEqual([
        ...WEBHOOK_EVENT_TYPES,
      ]);
    });

    it('refuses a description longer than 256 characters', () => {
      expect(params(() => create({ ...valid, description: 'd'.repeat(257) }))).toEqual([
        'description',
      ]);
      expect(create({ ...valid, description: 'd'.repeat(256) }).description).toHaveLength(256);
      expect(create({ ...valid, description: null })).toEqual(valid);
    });

    it('publishes its limits in the OpenAPI schema', () => {
      const schema = dtoSchema(CreateWebhookDto);
      expect(schema.required).toEqual(expect.arrayContaining(['url', 'events']));
      expect(schema.properties?.url).toMatchObject({ type: 'string', maxLength: 2048 });
      expect(schema.properties?.description).toMatchObject({ type: 'string', maxLength: 256 });
      expect(schema.additionalProperties).toBe(false);
    });
  });

  describe(UpdateWebhookDto.name, () => {
    const update = (body: Record<string, unknown>) =>
      toUpdateRequest(ID, validateInto(UpdateWebhookDto, body, 'body'));

    it('sends only the fields given', () => {
      expect(update({})).toEqual({ webhook_id: ID });
      expect(update({ status: 'paused' })).toEqual({ webhook_id: ID, status: 'paused' });
      expect(
        update({
          url: 'https://example.com/new',
          description: '',
          events: ['sms.sent', 'sms.sent', 'sms.failed'],
          status: 'active',
        }),
      ).toEqual({
        webhook_id: ID,
        url: 'https://example.com/new',
        description: '',
        events: ['sms.sent', 'sms.sent', 'sms.failed'],
        status: 'active',
      });
    });

    it('treats null as not given: the request carries no null', () => {
      expect(update({ url: null, description: null, events: null, status: null })).toEqual({
        webhook_id: ID,
      });
    });

    it('refuses status degraded: the service sets it, never the client', () => {
      expect(params(() => update({ status: 'degraded' }))).toEqual(['status']);
    });

    it('applies the create shapes to url, events and description', () => {
      expect(params(() => update({ events: [] }))).toEqual(['events']);
      expect(params(() => update({ url: '' }))).toEqual(['url']);
      expect(params(() => update({ description: 'd'.repeat(257) }))).toEqual(['description']);
      expect(params(() => update({ id: ID }))).toEqual(['id']);
    });
  });

  describe(ListWebhooksQuery.name, () => {
    const list = (query: Record<string, string>) =>
      toListRequest(validateInto(ListWebhooksQuery, query, 'query'));

    it('sorts by created_at, newest first, 25 a page by default', () => {
      expect(list({})).toEqual({ sort: 'created_at', order: 'desc', limit: 25 });
    });

    it('keeps desc as the default order for sort=url too (the SDK default)', () => {
      expect(list({ sort: 'url' })).toEqual({ sort: 'url', order: 'desc', limit: 25 });
    });

    it('passes cursors, order, limit and include_total through', () => {
      expect(
        list({
          sort: 'url',
          order: 'asc',
          limit: '100',
          starting_after: 'c1',
          ending_before: 'c2',
          include_total: 'true',
        }),
      ).toEqual({
        sort: 'url',
        order: 'asc',
        limit: 100,
        starting_after: 'c1',
        ending_before: 'c2',
        include_total: true,
      });
    });

    it('refuses an unknown sort, order, limit and parameter', () => {
      expect(params(() => list({ sort: 'name' }))).toEqual(['sort']);
      expect(params(() => list({ order: 'up' }))).toEqual(['order']);
      expect(params(() => list({ limit: '101' }))).toEqual(['limit']);
      expect(params(() => list({ include_total: 'yes' }))).toEqual(['include_total']);
      expect(params(() => list({ status: 'active' }))).toEqual(['status']);
    });
  });

  describe(TestWebhookDto.name, () => {
    const test = (body: Record<string, unknown>) =>
      toTestRequest(ID, validateInto(TestWebhookDto, body, 'body'));

    it('sends the event type when given, nothing else otherwise', () => {
      expect(test({})).toEqual({ webhook_id: ID });
      expect(test({ event_type: 'whatsapp.read' })).toEqual({
        webhook_id: ID,
        event_type: 'whatsapp.read',
      });
    });

    it('refuses an event_type that is empty or not a string', () => {
      expect(params(() => test({ event_type: '' }))).toEqual(['event_type']);
      expect(params(() => test({ event_type: ['email.delivered'] }))).toContain('event_type');
    });
  });

  describe(ListAttemptsQuery.name, () => {
    const attempts = (query: Record<string, string>) =>
      toAttemptsRequest(ID, validateInto(ListAttemptsQuery, query, 'query'));

    it('answers 50 attempts by default and at most 100', () => {
      expect(attempts({})).toEqual({ webhook_id: ID, limit: 50 });
      expect(attempts({ limit: '100' }).limit).toBe(100);
      expect(params(() => attempts({ limit: '101' }))).toEqual(['limit']);
      expect(params(() => attempts({ limit: '0' }))).toEqual(['limit']);
      expect(params(() => attempts({ limit: 'ten' }))).toContain('limit');
    });

    it('refuses an unknown query parameter', () => {
      expect(params(() => attempts({ starting_after: 'x' }))).toEqual(['starting_after']);
    });
  });

  describe(ReplayWebhookDto.name, () => {
    const replay = (body: Record<string, unknown>) =>
      toReplayRequest(ID, validateInto(ReplayWebhookDto, body, 'body'));

    it('leaves the range to the service by default (the last 24 hours)', () => {
      expect(replay({})).toEqual({ webhook_id: ID });
    });

    it('refuses a bound that is not a string, and unknown fields', () => {
      expect(params(() => replay({ since: 'last week', until: 1 }))).toContain('until');
      expect(params(() => replay({ event_types: ['email.delivered'] }))).toEqual(['event_types']);
    });
  });
});
