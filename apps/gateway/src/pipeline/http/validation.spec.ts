import { Type } from 'class-transformer';
import { IsEmail, IsString, ValidateNested } from 'class-validator';
import { AppError } from '@switchboard/platform';
import { validateInto } from './validation';

class Recipient {
  @IsEmail() email: string;
}

class Message {
  @IsString() subject: string;
  @ValidateNested({ each: true }) @Type(() => Recipient) to: Recipient[];
}

describe('validateInto', () => {
  const details = (plain: unknown) => {
    try {
      validateInto(Message, plain, 'body');
    } catch (err) {
      return (err as AppError).details;
    }
    return [];
  };

  it('names nested fields with dotted paths such as to[0].email', () => {
    expect(details({ subject: 'hi', to: [{ email: 'a@example.com' }, { email: 'nope' }] })).toEqual(
      [{ param: 'to[1].email', message: 'email must be an email' }],
    );
  });

  it('rejects unknown fields by name, nested ones included', () => {
    expect(
      details({ subject: 'hi', to: [{ email: 'a@example.com', name: 'A' }], colour: 'red' }),
    ).toEqual(
      expect.arrayContaining([
        { param: 'colour', message: 'is not a known field' },
        { param: 'to[0].name', message: 'is not a known field' },
      ]),
    );
  });

  it('refuses a body that is not a JSON object', () => {
    expect(details([1, 2])).toEqual([{ param: 'body', message: 'must be a JSON object' }]);
  });
});
