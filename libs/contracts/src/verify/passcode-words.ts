/**
 * The passcode message's words in each language Verify supports (`VERIFICATION_LANGUAGES`, the
 * SDK's list): the email's subject, and the line the SMS body and the email carry, with the
 * placeholders `{{ code }}` and `{{ minutes }}`. `no` and `nb-NO` are both Norwegian Bokmål.
 * Where a language inflects the word for minutes by number, the line uses its abbreviation, so
 * it reads right for any number. Every line fits one SMS segment with a 10-digit code and 1,440
 * minutes (70 characters in UCS-2, which most of these scripts need).
 */
export const PASSCODE_WORDS: Readonly<Record<string, { subject: string; line: string }>> = {
  en: {
    subject: 'Your verification code',
    line: 'Your verification code is {{ code }}. It expires in {{ minutes }} minutes. Never share it.',
  },
  ar: {
    subject: 'رمز التحقق الخاص بك',
    line: 'رمز التحقق: {{ code }}. صالح لمدة {{ minutes }} دقيقة. لا تشاركه مع أحد.',
  },
  bg: {
    subject: 'Вашият код за потвърждение',
    line: 'Код за потвърждение: {{ code }}. Валиден {{ minutes }} мин. Не го споделяйте.',
  },
  cs: {
    subject: 'Váš ověřovací kód',
    line: 'Ověřovací kód: {{ code }}. Platí {{ minutes }} min. Nikomu ho nesdělujte.',
  },
  da: {
    subject: 'Din bekræftelseskode',
    line: 'Din bekræftelseskode er {{ code }}. Den udløber om {{ minutes }} minutter. Del den aldrig.',
  },
  de: {
    subject: 'Ihr Bestätigungscode',
    line: 'Ihr Bestätigungscode lautet {{ code }}. Er ist {{ minutes }} Minuten gültig. Nicht weitergeben.',
  },
  el: {
    subject: 'Ο κωδικός επαλήθευσής σας',
    line: 'Κωδικός επαλήθευσης: {{ code }}. Ισχύει {{ minutes }} λεπτά. Μην τον δίνετε.',
  },
  es: {
    subject: 'Tu código de verificación',
    line: 'Tu código es {{ code }}. Caduca en {{ minutes }} minutos. No lo compartas.',
  },
  fi: {
    subject: 'Vahvistuskoodisi',
    line: 'Vahvistuskoodisi on {{ code }}. Se vanhenee {{ minutes }} min kuluttua. Älä jaa sitä kenellekään.',
  },
  fr: {
    subject: 'Votre code de vérification',
    line: 'Votre code de vérification est {{ code }}. Il expire dans {{ minutes }} minutes. Ne le partagez pas.',
  },
  he: {
    subject: 'קוד האימות שלך',
    line: 'קוד האימות שלך הוא {{ code }}. הוא יפוג בעוד {{ minutes }} דקות. אין לשתף אותו.',
  },
  hi: {
    subject: 'आपका सत्यापन कोड',
    line: 'सत्यापन कोड: {{ code }}। {{ minutes }} मिनट तक मान्य। इसे किसी से साझा न करें।',
  },
  hr: {
    subject: 'Vaš kod za potvrdu',
    line: 'Kod za potvrdu: {{ code }}. Vrijedi {{ minutes }} min. Nikome ga ne otkrivajte.',
  },
  hu: {
    subject: 'Az Ön ellenőrző kódja',
    line: 'Ellenőrző kód: {{ code }}. {{ minutes }} percig érvényes. Ne adja tovább.',
  },
  id: {
    subject: 'Kode verifikasi Anda',
    line: 'Kode verifikasi Anda adalah {{ code }}. Berlaku selama {{ minutes }} menit. Jangan bagikan kepada siapa pun.',
  },
  it: {
    subject: 'Il tuo codice di verifica',
    line: 'Il tuo codice di verifica è {{ code }}. Scade tra {{ minutes }} minuti. Non condividerlo.',
  },
  ja: {
    subject: '認証コード',
    line: '認証コードは {{ code }} です。有効期限は {{ minutes }} 分です。他の人に教えないでください。',
  },
  ko: {
    subject: '인증 코드',
    line: '인증 코드는 {{ code }}입니다. {{ minutes }}분 후에 만료됩니다. 다른 사람과 공유하지 마세요.',
  },
  lt: {
    subject: 'Jūsų patvirtinimo kodas',
    line: 'Patvirtinimo kodas: {{ code }}. Galioja {{ minutes }} min. Niekam neatskleiskite.',
  },
  lv: {
    subject: 'Jūsu verifikācijas kods',
    line: 'Verifikācijas kods: {{ code }}. Derīgs {{ minutes }} min. Nevienam neatklājiet.',
  },
  mk: {
    subject: 'Вашиот код за потврда',
    line: 'Код за потврда: {{ code }}. Важи {{ minutes }} мин. Не го споделувајте.',
  },
  mn: {
    subject: 'Таны баталгаажуулах код',
    line: 'Баталгаажуулах код: {{ code }}. {{ minutes }} минут хүчинтэй. Бүү хуваалц.',
  },
  ms: {
    subject: 'Kod pengesahan anda',
    line: 'Kod pengesahan anda ialah {{ code }}. Kod ini tamat tempoh dalam {{ minutes }} minit. Jangan kongsi dengan sesiapa.',
  },
  'nb-NO': {
    subject: 'Din bekreftelseskode',
    line: 'Bekreftelseskoden din er {{ code }}. Den utløper om {{ minutes }} minutter. Ikke del den med noen.',
  },
  nl: {
    subject: 'Je verificatiecode',
    line: 'Je verificatiecode is {{ code }}. Deze verloopt over {{ minutes }} minuten. Deel hem nooit.',
  },
  no: {
    subject: 'Din bekreftelseskode',
    line: 'Bekreftelseskoden din er {{ code }}. Den utløper om {{ minutes }} minutter. Ikke del den med noen.',
  },
  pl: {
    subject: 'Twój kod weryfikacyjny',
    line: 'Kod weryfikacyjny: {{ code }}. Ważny {{ minutes }} min. Nie udostępniaj go.',
  },
  pt: {
    subject: 'O seu código de verificação',
    line: 'O seu código é {{ code }}. Expira em {{ minutes }} minutos. Não o partilhe.',
  },
  'pt-BR': {
    subject: 'Seu código de verificação',
    line: 'Seu código é {{ code }}. Expira em {{ minutes }} minutos. Não compartilhe.',
  },
  ro: {
    subject: 'Codul dvs. de verificare',
    line: 'Cod de verificare: {{ code }}. Valabil {{ minutes }} min. Nu îl dezvălui.',
  },
  ru: {
    subject: 'Ваш код подтверждения',
    line: 'Код подтверждения: {{ code }}. Действует {{ minutes }} мин. Не сообщайте его.',
  },
  sk: {
    subject: 'Váš overovací kód',
    line: 'Overovací kód: {{ code }}. Platí {{ minutes }} min. Nikomu ho neposkytujte.',
  },
  sl: {
    subject: 'Vaša koda za preverjanje',
    line: 'Koda za preverjanje: {{ code }}. Velja {{ minutes }} min. Ne delite je z nikomer.',
  },
  sr: {
    subject: 'Ваш код за потврду',
    line: 'Код за потврду: {{ code }}. Важи {{ minutes }} мин. Не делите га ни са ким.',
  },
  sv: {
    subject: 'Din verifieringskod',
    line: 'Din verifieringskod är {{ code }}. Den går ut om {{ minutes }} minuter. Dela den aldrig.',
  },
  th: {
    subject: 'รหัสยืนยันของคุณ',
    line: 'รหัสยืนยัน: {{ code }} ใช้ได้ {{ minutes }} นาที ห้ามบอกรหัสนี้แก่ผู้อื่น',
  },
  tr: {
    subject: 'Doğrulama kodunuz',
    line: 'Doğrulama kodu: {{ code }}. {{ minutes }} dk geçerli. Kimseyle paylaşmayın.',
  },
  uk: {
    subject: 'Ваш код підтвердження',
    line: 'Код підтвердження: {{ code }}. Дійсний {{ minutes }} хв. Нікому не кажіть.',
  },
  vi: {
    subject: 'Mã xác minh của bạn',
    line: 'Mã xác minh: {{ code }}. Hiệu lực {{ minutes }} phút. Không chia sẻ mã này.',
  },
  zh: {
    subject: '您的验证码',
    line: '您的验证码是 {{ code }}，{{ minutes }} 分钟内有效。请勿与他人分享。',
  },
  'zh-TW': {
    subject: '您的驗證碼',
    line: '您的驗證碼是 {{ code }}，{{ minutes }} 分鐘內有效。請勿與他人分享。',
  },
};
