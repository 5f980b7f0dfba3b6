/**
 * Ray job submission from Java: a small client for the dashboard's Jobs REST API ({@code
 * /api/jobs/}, {@code /api/packages/}), content-addressed runtime-env packages of the project's
 * jars, and a follower that streams a job's status and logs until it ends. Plain HTTP: no Ray
 * runtime.
 */
package dev.javelin.recipes.jobs;
