import { submitProblems } from './submit-check';
import { contentHash } from './template.mapper';

const language = (tag: string, fields: { subject?: string; html?: string; text?: string }) => {
  const content = { subject: null, preview_text: null, html: null, text: null, ...fields };
  return { language: tag, ...content, content_hash: contentHash(content) };
};

describe(submitProblems.name, () => {
  const en = language('en', { subject: 'Hi {{ name }}', html: '<p>Hi</p>' });

  it('accepts a complete first draft', () => {
    expect(
      submitProblems({
        languages: [en],
        defaultLanguage: 'en',
        live: {},
        liveDefaultLanguage: null,
      }),
    ).toEqual([]);
  });

  it('lists every incomplete language at once, by field', () => {
    const problems = submitProblems({
      languages: [en, language('fr', { html: '<p>x</p>' }), language('de', { subject: 'x' })],
      defaultLanguage: 'en',
      live: {},
      liveDefaultLanguage: null,
    });
    expect(problems.map((p) => [p.language, p.field, p.code])).toEqual([
      ['fr', 'subject', 'E01120'],
      ['de', 'html', 'E01120'],
    ]);
  });

  it('refuses an empty draft and a default language the draft lacks', () => {
    expect(
      submitProblems({
        languages: [],
        defaultLanguage: 'en',
        live: {},
        liveDefaultLanguage: null,
      }).map((p) => p.code),
    ).toEqual(['E01122']);
    expect(
      submitProblems({
        languages: [language('fr', { subject: 's', text: 't' })],
        defaultLanguage: 'en',
        live: {},
        liveDefaultLanguage: null,
      }).map((p) => [p.language, p.code]),
    ).toEqual([[null, 'E01121']]);
  });

  it('refuses a draft identical to the live version, not one whose default changed', () => {
    const live = { en: en.content_hash };
    expect(
      submitProblems({
        languages: [en],
        defaultLanguage: 'en',
        live,
        liveDefaultLanguage: 'en',
      }).map((p) => p.code),
    ).toEqual(['E01122']);
    const fr = language('fr', { subject: 's', text: 't' });
    expect(
      submitProblems({
        languages: [en, fr],
        defaultLanguage: 'fr',
        live: { en: en.content_hash, fr: fr.content_hash },
        liveDefaultLanguage: 'en',
      }),
    ).toEqual([]);
  });

  it('refuses HTML whose derived text body would not parse, but not once a text is written', () => {
    const joined = { subject: 'Hi', html: '<p>{<b></b>{ name </p><p>{<i></i>% include "x" %}</p>' };
    const problems = submitProblems({
      languages: [language('en', joined)],
      defaultLanguage: 'en',
      live: {},
      liveDefaultLanguage: null,
    });
    expect(problems.map((p) => [p.field, p.code])).toEqual([['html', 'E01123']]);
    expect(problems[0].message).toContain('text body derived from the HTML');
    expect(
      submitProblems({
        languages: [language('en', { ...joined, text: 'Hi' })],
        defaultLanguage: 'en',
        live: {},
        liveDefaultLanguage: null,
      }),
    ).toEqual([]);
  });

  it('names Liquid that does not parse or is not supported, per field', () => {
    const problems = submitProblems({
      languages: [language('en', { subject: 'Hi {{', html: '{% render "x" %}' })],
      defaultLanguage: 'en',
      live: {},
      liveDefaultLanguage: null,
    });
    expect(problems.map((p) => [p.field, p.code])).toEqual([
      ['subject', 'E01123'],
      ['html', 'E01123'],
    ]);
  });
});
