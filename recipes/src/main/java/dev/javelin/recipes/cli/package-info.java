/** The javelin command line: run, eval, check, plan, score, convert, submit, jobs and status. */
package dev.javelin.recipes.cli;
