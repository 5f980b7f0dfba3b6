/** An example GRPO job written against the Javelin API. */
package com.example;
