/** A small vault whose every note is known, for exact assertions. */
export const FIXTURE: Record<string, string> = {
  'Welcome.md': `---
id: 00000000-0000-4000-8000-000000000001
created: 2026-11-30T08:00:00+00:00
updated: 2026-11-30T08:00:00+00:00
tags: [start]
---
# Welcome

This vault holds #ml notes and talks with @alice.
`,
  'Reading/Attention.md': `---
id: 00000000-0000-4000-8000-000000000002
title: Attention is all you need
source: bookmark
source_url: https://arxiv.org/abs/1706.03762
created: 2026-11-29T09:12:00+00:00
updated: 2026-11-30T09:00:00+00:00
# a comment the server must keep
rating: 4
---
Reading notes on the transformer paper by @vaswani. #ml/papers #papers

See [the paper](https://arxiv.org/abs/1706.03762#section-3).
`,
  'Reading/Papers/LoRA.md': `---
id: 00000000-0000-4000-8000-000000000003
source: feed
source_url: https://example.com/lora
created: 2026-11-20T10:00:00+00:00
updated: 2026-11-21T10:00:00+00:00
---
Low-rank adaptation. \`#notatag\` mail bob@example.com #ml
`,
  'Inbox/Launch.md': `---
id: 00000000-0000-4000-8000-000000000004
source: email
attachment: Attachments/launch.eml
created: 2026-11-25T10:00:00+00:00
updated: 2026-11-25T10:00:00+00:00
---
The launch moves to Friday. @bob #work
`,
  'Attachments/launch.eml': 'From: bob@example.com\nSubject: Launch\n\nFriday.\n',
  'Plain note.md': 'No frontmatter here, just #garden thoughts.\n',
  'Broken.md': '---\ntags: [unclosed\n---\nBroken frontmatter but still a #note.\n',
  'Empty/.gitkeep': '',
  '.obsidian/workspace.md': 'not part of the vault',
  'node_modules/pkg/readme.md': 'not part of the vault',
};
