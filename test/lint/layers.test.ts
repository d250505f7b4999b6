import { describe, expect, it } from 'vitest'
import { ESLint } from 'eslint'

const root = new URL('../..', import.meta.url).pathname
const eslint = new ESLint({ cwd: root })

/** The messages the project's lint rules give for `code` placed at `file`. */
async function lint(file: string, code: string): Promise<string[]> {
  const [r] = await eslint.lintText(code, { filePath: `${root}${file}` })
  return r.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message)
}

describe('layer directions (eslint.config.js)', () => {
  it('keeps src/shared free of Node, Electron and Vue, and of the layers above it', async () => {
    expect(
      await lint('src/shared/x.ts', "import { readFileSync } from 'fs'\nexport const a = readFileSync\n"),
    ).toHaveLength(1)
    expect(
      await lint('src/shared/x.ts', "import { join } from 'node:path'\nexport const a = join\n"),
    ).toHaveLength(1)
    expect(await lint('src/shared/x.ts', "import { ref } from 'vue'\nexport const a = ref\n")).toHaveLength(1)
    expect(
      await lint('src/shared/x.ts', "import { main } from '../cli/main'\nexport const a = main\n"),
    ).toHaveLength(1)
    // a module of ours whose name matches a Node built-in is fine
    expect(await lint('src/shared/x.ts', "import { a } from './api/events'\nexport const b = a\n")).toEqual(
      [],
    )
  })

  it('keeps the renderer away from main, and services, the server and the CLI away from Electron', async () => {
    expect(
      await lint('src/renderer/src/x.ts', "import { a } from '../../main/ipc'\nexport const b = a\n"),
    ).toHaveLength(1)
    expect(
      await lint('src/main/services/x.ts', "import { app } from 'electron'\nexport const a = app\n"),
    ).toHaveLength(1)
    expect(
      await lint('src/main/server/x.ts', "import { app } from 'electron'\nexport const a = app\n"),
    ).toHaveLength(1)
    expect(await lint('src/cli/x.ts', "import { app } from 'electron'\nexport const a = app\n")).toHaveLength(
      1,
    )
    expect(
      await lint('src/main/x.ts', "import { a } from '../renderer/src/api'\nexport const b = a\n"),
    ).toHaveLength(1)
    // the Electron glue itself may import electron
    expect(await lint('src/main/ipc2.ts', "import { app } from 'electron'\nexport const a = app\n")).toEqual(
      [],
    )
  })
})
