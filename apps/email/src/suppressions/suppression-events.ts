import type { EmailSuppression } from '@switchboard/contracts';
import { newId } from '@switchboard/persistence';
import type { OutboxEvent } from '@switchboard/platform';

/** `email_suppression.created` (the SDK's EventEmailSuppressionCreated), for the outbox. */
export function suppressionCreatedEvent(suppression: EmailSuppression): OutboxEvent {
  const timestamp = new Date(suppression.created_at);
  return {
    id: newId('ev', timestamp.getTime()),
    type: 'email_suppression.created',
    workspaceId: suppression.scope.id,
    timestamp: suppression.created_at,
    data: {
      suppression_id: suppression.id,
      email: suppression.email,
      reason: suppression.reason,
      workspace_id: suppression.scope.id,
    },
  };
}
