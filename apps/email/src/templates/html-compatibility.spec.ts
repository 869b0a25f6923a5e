import { compatibilityOf, joinReports, MAX_FINDINGS } from './html-compatibility';

describe(compatibilityOf.name, () => {
  it('takes linear time over many matches and unclosed tags (a 1 MB body cannot stall it)', () => {
    // 200 KB each: counting lines from the start per match took seconds here.
    for (const html of [' onx="'.repeat(35_000), 'clamp('.repeat(35_000), '<link'.repeat(40_000)]) {
      const started = Date.now();
      const report = compatibilityOf(html, null);
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(report.findings.length).toBeLessThanOrEqual(MAX_FINDINGS);
    }
  });

  it('finds nothing in plain table markup', () => {
    expect(compatibilityOf('<table><tr><td style="color:#333">Hi</td></tr></table>', null)).toEqual(
      { severity: 'none', findings: [] },
    );
  });

  it('reports each pattern in source order with its line, column and match', () => {
    const html =
      '<p>Hi</p>\n<div style="display: flex">\n  <a onclick="x()">go</a><script>x()</script></div>';
    const report = compatibilityOf(html, 'en');
    expect(report.severity).toBe('problem');
    expect(report.findings.map((f) => [f.rule_id, f.line, f.column, f.match])).toEqual([
      ['css_display_flex_grid', 2, 13, 'display: flex'],
      ['html_event_handlers', 3, 6, 'onclick="x()"'],
      ['html_script', 3, 26, '<script>x()</script>'],
    ]);
    expect(report.findings[0]).toMatchObject({
      severity: 'warning',
      language: 'en',
      field: 'html',
    });
  });

  it('counts every finding in the severity but lists at most 200', () => {
    const report = compatibilityOf(
      '<p style="width:1vw"></p>'.repeat(MAX_FINDINGS + 5) + '<svg></svg>',
      null,
    );
    expect(report.findings).toHaveLength(MAX_FINDINGS);
    expect(report.severity).toBe('problem');
    expect(joinReports([report, compatibilityOf('', null)]).severity).toBe('problem');
  });
});
