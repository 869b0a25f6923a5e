import { validateInto } from '../../pipeline/http/validation';
import { dtoSchema } from '../../pipeline/openapi/dto-schema';
import {
  ListEmailEventsQuery,
  ListEmailMessagesQuery,
  SendEmailBatchDto,
  SendEmailMessageDto,
} from './messages.dto';
import { validationFailure } from '@switchboard/testing';

const failure = validationFailure;

describe('email message DTOs', () => {
  describe(SendEmailMessageDto.name, () => {
    it('lets every send field through to the normaliser, whatever its value', () => {
      const body = {
        from: 7,
        to: 'x',
        cc: {},
        bcc: null,
        reply_to: [],
        subject: 1,
        html: [],
        text: false,
        category: 'x',
        tags: 'x',
        metadata: 'x',
        parameters: 1,
        headers: 1,
        attachments: 1,
        template: 1,
        track_opens: 1,
        track_clicks: 1,
        ip_pool_id: 1,
        scheduled_at: 1,
      };
      expect(() => validateInto(SendEmailMessageDto, body, 'body')).not.toThrow();
    });

    it('refuses unknown fields by name', () => {
      expect(
        failure(() =>
          validateInto(
            SendEmailMessageDto,
            { from: 'a', to: [], workspace_user_emails: [] },
            'body',
          ),
        ),
      ).toEqual([{ param: 'workspace_user_emails', message: 'is not a known field' }]);
      expect(
        failure(() => validateInto(SendEmailBatchDto, { messages: [], extra: 1 }, 'body')),
      ).toEqual([{ param: 'extra', message: 'is not a known field' }]);
    });

    it('publishes the field names, from and to required', () => {
      const schema = dtoSchema(SendEmailMessageDto);
      expect(schema.required).toEqual(['from', 'to']);
      expect(Object.keys(schema.properties ?? {})).toHaveLength(19);
    });
  });

  describe(ListEmailMessagesQuery.name, () => {
    const list = (query: Record<string, unknown>) =>
      validateInto(ListEmailMessagesQuery, query, 'query');

    it('normalises timestamps to UTC, lowercases to and from, and takes tags as a list', () => {
      expect({
        ...list({
          created_after: '2030-01-01T02:00:00+02:00',
          created_before: '2030-01-02T00:00:00Z',
          to: ' Jane@Example.COM ',
          from: 'HELLO@acme.com',
          tag: 'flow:signup',
          status: 'delivered',
          category: 'transactional',
          limit: '10',
        }),
      }).toEqual({
        limit: 10,
        created_after: '2030-01-01T00:00:00.000Z',
        created_before: '2030-01-02T00:00:00.000Z',
        to: 'jane@example.com',
        from: 'hello@acme.com',
        tag: ['flow:signup'],
        status: 'delivered',
        category: 'transactional',
      });
      expect(list({ tag: ['a', 'b:c'] }).tag).toEqual(['a', 'b:c']);
    });

    it('refuses include_total, sort and order, and bad filters, by name', () => {
      expect(
        failure(() =>
          list({
            include_total: 'true',
            order: 'asc',
            created_after: '2030-02-30T00:00:00Z',
            created_before: '2030-01-01',
            status: 'sent',
            category: 'promo',
            to: 'not-an-email',
            from: 'a@b',
            tag: 'a b',
          }),
        ).map((d) => d.param),
      ).toEqual(
        expect.arrayContaining([
          'include_total',
          'order',
          'created_after',
          'created_before',
          'status',
          'category',
          'to',
          'from',
          'tag',
        ]),
      );
      expect(
        failure(() => list({ tag: Array.from({ length: 11 }, (_, i) => `t${i}`) })).map(
          (d) => d.param,
        ),
      ).toEqual(['tag']);
    });
  });

  describe(ListEmailEventsQuery.name, () => {
    it('takes a known event type only', () => {
      expect(validateInto(ListEmailEventsQuery, { type: 'email.bounced' }, 'query').type).toBe(
        'email.bounced',
      );
      expect(
        failure(() => validateInto(ListEmailEventsQuery, { type: 'bounced' }, 'query')),
      ).toEqual([{ param: 'type', message: expect.stringContaining('email.accepted') }]);
    });
  });
});
