import { Type } from 'class-transformer';
import {
  IsEmail,
  IsInt,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { AppError } from '@switchboard/platform';
import { validateInto } from './validation';

class Recipient {
  @IsEmail() email: string;
}

class Message {
  @IsString() subject: string;
  @ValidateNested({ each: true }) @Type(() => Recipient) to: Recipient[];
}

class Page {
  @IsOptional() @Type(() => Number) @IsInt() limit?: number;
}

class Login {
  @IsEmail() email: string;
  @IsString() @MinLength(8) @MaxLength(200) password: string;
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

  it('refuses with 422, never a 500, a value class-transformer cannot convert ({"toString": ""})', () => {
    let thrown: unknown;
    try {
      validateInto(Page, { limit: { toString: '' } }, 'body');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect((thrown as AppError).details).toEqual([
      { param: 'body', message: expect.stringContaining('has a value of the wrong type') },
    ]);
  });

  it('refuses a body that is not a JSON object', () => {
    expect(details([1, 2])).toEqual([{ param: 'body', message: 'must be a JSON object' }]);
  });

  it('answers one problem for an absent required field, not one per rule it would break', () => {
    let thrown: unknown;
    try {
      validateInto(Login, { email: 'ada@example.com' }, 'body');
    } catch (err) {
      thrown = err;
    }
    expect((thrown as AppError).details).toEqual([{ param: 'password', message: 'is required' }]);
    expect(() =>
      validateInto(Login, { email: 'ada@example.com', password: 'short' }, 'body'),
    ).toThrow(AppError);
  });
});
