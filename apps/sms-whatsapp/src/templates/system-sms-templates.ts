import { PASSCODE_WORDS } from '@switchboard/contracts';
import type { SmsMessageCategory } from '@switchboard/contracts';
import type { VariableType } from './template-variable-types';
import {
  amountType,
  codeType,
  currencyType,
  dateType,
  integerType,
  textType,
  timeType,
} from './template-variable-types';

/** One slot of a shipped template: what the API shows, and the type that checks a value. */
export interface SystemTemplateVariable {
  key: string;
  type: VariableType;
  required: boolean;
  constraint: string;
  sensitive?: boolean;
}

/**
 * A template the platform ships: fixed id and slug (`bird_` is reserved for these), one body per
 * language (placeholders `{{ key }}`), every language live. Shipped as data, never stored.
 */
export interface SystemSmsTemplate {
  id: string;
  slug: string;
  name: string;
  description: string;
  category: SmsMessageCategory;
  variables: SystemTemplateVariable[];
  defaultLanguage: string;
  bodies: Readonly<Record<string, string>>;
}

const code: SystemTemplateVariable = {
  key: 'code',
  type: codeType,
  required: true,
  constraint: 'The one-time code: 4 to 10 digits or uppercase letters, as a string.',
  sensitive: true,
};
const minutes: SystemTemplateVariable = {
  key: 'minutes',
  type: integerType(1, 1440),
  required: true,
  constraint: 'How long the code stays valid, in whole minutes from 1 to 1440.',
};
const brand: SystemTemplateVariable = {
  key: 'brand',
  type: textType('name', 30),
  required: true,
  constraint: 'Your brand as recipients know it: 1 to 30 characters on one line.',
};

export const SYSTEM_SMS_TEMPLATES: readonly SystemSmsTemplate[] = [
  {
    id: 'smt_01kdvdna006h56jrnyqctsghps',
    slug: 'bird_otp_verification',
    name: 'One-time passcode',
    description: 'A verification code for sign-in or confirming an action.',
    category: 'authentication',
    variables: [code],
    defaultLanguage: 'en',
    bodies: {
      en: 'Your verification code is {{ code }}. Never share this code with anyone.',
      nl: 'Je verificatiecode is {{ code }}. Deel deze code nooit met iemand.',
      de: 'Ihr Bestätigungscode lautet {{ code }}. Geben Sie diesen Code niemals weiter.',
      fr: 'Votre code de vérification est {{ code }}. Ne le partagez avec personne.',
      es: 'Tu código de verificación es {{ code }}. No lo compartas con nadie.',
      it: 'Il tuo codice di verifica è {{ code }}. Non condividerlo con nessuno.',
      pt: 'O seu código de verificação é {{ code }}. Não o partilhe com ninguém.',
      'pt-BR': 'Seu código de verificação é {{ code }}. Não compartilhe com ninguém.',
    },
  },
  {
    id: 'smt_01kdvdna0120dmacm20s2a5sq7',
    slug: 'bird_otp_verification_expiry',
    name: 'One-time passcode with expiry',
    description: 'A verification code and how many minutes it stays valid.',
    category: 'authentication',
    variables: [code, minutes],
    defaultLanguage: 'en',
    // Every language Verify supports (Verify sends its SMS passcodes with this template).
    bodies: Object.fromEntries(
      Object.entries(PASSCODE_WORDS).map(([language, words]) => [language, words.line]),
    ),
  },
  {
    id: 'smt_01kdvdna02nn77e2wdtdpr5nwm',
    slug: 'bird_appointment_reminder',
    name: 'Appointment reminder',
    description: 'Reminds the recipient of an appointment on a day at a time.',
    category: 'transactional',
    variables: [
      brand,
      {
        key: 'date',
        type: dateType,
        required: true,
        constraint: 'The day, as YYYY-MM-DD.',
      },
      {
        key: 'time',
        type: timeType,
        required: true,
        constraint: 'The time of day, as HH:MM on the 24-hour clock.',
      },
    ],
    defaultLanguage: 'en',
    bodies: {
      en: '{{ brand }}: reminder of your appointment on {{ date }} at {{ time }}.',
      nl: '{{ brand }}: herinnering aan uw afspraak op {{ date }} om {{ time }}.',
      de: '{{ brand }}: Erinnerung an Ihren Termin am {{ date }} um {{ time }}.',
      fr: '{{ brand }} : rappel de votre rendez-vous le {{ date }} à {{ time }}.',
      es: '{{ brand }}: recordatorio de su cita el {{ date }} a las {{ time }}.',
    },
  },
  {
    id: 'smt_01kdvdna036dsfgp4bc5yn078j',
    slug: 'bird_payment_confirmation',
    name: 'Payment confirmation',
    description: 'Confirms that a payment of an amount in a currency was received.',
    category: 'transactional',
    variables: [
      brand,
      {
        key: 'amount',
        type: amountType,
        required: true,
        constraint: 'The amount, non-negative with at most two decimals, such as 12.50.',
      },
      {
        key: 'currency',
        type: currencyType,
        required: true,
        constraint: 'The ISO 4217 currency code, such as EUR.',
      },
    ],
    defaultLanguage: 'en',
    bodies: {
      en: '{{ brand }}: we received your payment of {{ amount }} {{ currency }}. Thank you.',
      nl: '{{ brand }}: we hebben uw betaling van {{ amount }} {{ currency }} ontvangen. Bedankt.',
      de: '{{ brand }}: Wir haben Ihre Zahlung über {{ amount }} {{ currency }} erhalten. Vielen Dank.',
      fr: '{{ brand }} : nous avons bien enregistré votre paiement de {{ amount }} {{ currency }}. Merci.',
      es: '{{ brand }}: hemos recibido su pago de {{ amount }} {{ currency }}. Gracias.',
    },
  },
  {
    id: 'smt_01kdvdna04k3nfh90s6c408m1h',
    slug: 'bird_notification',
    name: 'Notification',
    description: 'A short service notification under your brand, in your own words.',
    category: 'transactional',
    variables: [
      brand,
      {
        key: 'message',
        type: textType('short_text', 300),
        required: true,
        constraint: 'The notification: 1 to 300 characters on one line.',
      },
    ],
    defaultLanguage: 'en',
    bodies: { en: '{{ brand }}: {{ message }}' },
  },
];
