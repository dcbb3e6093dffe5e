import { completeTaskTool } from './complete-task.js';
import { createNoteTool } from './create-note.js';
import { deleteNoteTool } from './delete-note.js';
import { editNoteTool } from './edit-note.js';
import { findSimilarTool } from './find-similar.js';
import { getDueReviewsTool } from './get-due-reviews.js';
import { getDailyNoteTool } from './get-daily-note.js';
import { getNoteTool } from './get-note.js';
import { gradeReviewTool } from './grade-review.js';
import { listFoldersTool } from './list-folders.js';
import { listNotesTool } from './list-notes.js';
import { listPropertiesTool } from './list-properties.js';
import { listTagsTool } from './list-tags.js';
import { listTasksTool } from './list-tasks.js';
import { moveNoteTool } from './move-note.js';
import { renameTagTool } from './rename-tag.js';
import { searchNotesTool } from './search-notes.js';
import { semanticSearchTool } from './semantic-search.js';
import { setPropertiesTool } from './set-properties.js';
import type { ToolDefinition } from './tool.js';
import { updateNoteTool } from './update-note.js';

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
  listTasksTool,
  listPropertiesTool,
  createNoteTool,
  updateNoteTool,
  editNoteTool,
  moveNoteTool,
  setPropertiesTool,
  completeTaskTool,
  renameTagTool,
  deleteNoteTool,
  getDueReviewsTool,
  gradeReviewTool,
];

export type { ToolContext, ToolDefinition } from './tool.js';
