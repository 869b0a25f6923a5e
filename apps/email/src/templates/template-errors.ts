import { EmailTemplateErrors } from '@switchboard/contracts';
import type { ErrorDetail } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';

/**
 * Why a template cannot be pinned or rendered for a send, as typed errors (each an `AppError`
 * with its catalog code, so a caller may let it through to the API unchanged). `param` names the
 * field of the request it is about (`template.slug`, `messages[2].template.parameters.name`).
 */
export class TemplateUnknownError extends AppError {
  constructor(param: string, ref: string) {
    super(EmailTemplateErrors.TemplateUnknown, {
      details: [{ param, message: `no template ${ref} in this workspace` }],
    });
  }
}

export class TemplateNotPublishedError extends AppError {
  constructor(param: string, ref: string) {
    super(EmailTemplateErrors.TemplateNotPublished, {
      details: [
        { param, message: `template ${ref} has never been published: submit its draft first` },
      ],
    });
  }
}

export class TemplateLanguageRequiredError extends AppError {
  constructor(param: string, ref: string) {
    super(EmailTemplateErrors.TemplateLanguageRequired, {
      details: [
        { param, message: `template ${ref} sets language_source_required: name a language` },
      ],
    });
  }
}

export class TemplateLanguageUnavailableError extends AppError {
  constructor(param: string, language: string, available: string[]) {
    super(EmailTemplateErrors.TemplateLanguageUnavailable, {
      details: [
        {
          param,
          message: `the template has no ${language} content and on_missing_language is fail (available: ${available.join(', ')})`,
        },
      ],
    });
  }
}

export class TemplateVariableMissingError extends AppError {
  /** The variables without a value, by name. */
  readonly variables: string[];

  constructor(paramPrefix: string, variables: string[]) {
    const details: ErrorDetail[] = variables.map((name) => ({
      param: `${paramPrefix}${name}`,
      message: `the template uses ${name}: give it a value`,
    }));
    super(EmailTemplateErrors.TemplateVariableMissing, { details });
    this.variables = variables;
  }
}

/** Several sends' template problems as one error: the first one's code, every detail. */
export function joinTemplateErrors(errors: AppError[]): AppError {
  if (errors.length === 1) return errors[0];
  return new AppError(errors[0].code, {
    details: errors.flatMap((error) => error.details ?? []),
  });
}
