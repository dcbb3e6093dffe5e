import { editNoteTool } from './edit-note.js';
import { getDailyNoteTool } from './get-daily-note.js';
import { getNoteTool } from './get-note.js';
import { listNotesTool } from './list-notes.js';
import { getDueReviewsTool, gradeReviewTool } from './review.js';
import { searchNotesTool } from './search-notes.js';
import { setPropertiesTool } from './set-properties.js';
import { findSimilarTool, semanticSearchTool } from './semantic.js';
import { listFoldersTool, listTagsTool } from './tags-folders.js';
import type { ToolDefinition } from './tool.js';
import { createNoteTool, deleteNoteTool, moveNoteTool, updateNoteTool } from './write-notes.js';

/** Every tool, in the order clients list them: reads first, then writes. */
export const ALL_TOOLS: readonly ToolDefinition[] = [
  searchNotesTool,
  semanticSearchTool,
  listNotesTool,
  getNoteTool,
  getDailyNoteTool,
  findSimilarTool,
  listTagsTool,
  listFoldersTool,
  createNoteTool,
  updateNoteTool,
  editNoteTool,
  moveNoteTool,
  setPropertiesTool,
  deleteNoteTool,
  getDueReviewsTool,
  gradeReviewTool,
];

export type { ToolContext, ToolDefinition } from './tool.js';
